import assert from "node:assert/strict";
import { parseInWorker, type ParseLimits } from "./parse_worker.ts";
import { ParseFailure } from "./parsers/types.ts";
import { buildXlsxBomb } from "./parsers/test_files.ts";

const FIXTURES = new URL("../../tests/fixtures/documents/", import.meta.url);
const fixture = (name: string) => Deno.readFile(new URL(name, FIXTURES));
const LIMITS: ParseLimits = { timeoutSeconds: 60, memoryMb: 512, maxOutputBytes: 64 * 1024 * 1024 };

async function refusal(promise: Promise<unknown>): Promise<ParseFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ParseFailure, `expected a ParseFailure, got ${error}`);
    return error;
  }
  throw new Error("the file was parsed");
}

Deno.test("the worker parses a real PDF in its own process and keeps the page offsets", async () => {
  const parsed = await parseInWorker({
    name: "pdflatex-4-pages.pdf",
    bytes: await fixture("pdflatex-4-pages.pdf"),
  }, LIMITS);
  assert.equal(parsed.pageBreaks?.length, 4);
  assert.match(parsed.text, /^Hello, here is some text without a meaning\./);
  // Several at once, a failing one among them: each answers for itself.
  const [docx, encrypted, html] = await Promise.allSettled([
    parseInWorker({ name: "tables.docx", bytes: await fixture("tables.docx") }, LIMITS),
    parseInWorker({ name: "locked.pdf", bytes: await fixture("libreoffice-writer-password.pdf") }, LIMITS),
    parseInWorker({ name: "handler.html", bytes: await fixture("handler.html") }, LIMITS),
  ]);
  assert.equal(docx.status === "fulfilled" && docx.value.text.split("\n\n")[0], "Above");
  assert.ok(encrypted.status === "rejected" && encrypted.reason instanceof ParseFailure);
  assert.equal(encrypted.reason.message, "locked.pdf is encrypted (password-protected) and cannot be read.");
  assert.ok(html.status === "fulfilled" && html.value.text.startsWith("# Apache's Handler Use"));
});

Deno.test("a worker that takes longer than the time limit is stopped", async () => {
  const bomb = await buildXlsxBomb(100);
  assert.ok(bomb.length < 2 * 1024 * 1024, `the bomb is small when packed (${bomb.length} bytes)`);
  const started = performance.now();
  const failure = await refusal(
    parseInWorker({ name: "huge.xlsx", bytes: bomb }, { ...LIMITS, timeoutSeconds: 1, memoryMb: 2048 }),
  );
  assert.equal(failure.message, "huge.xlsx could not be parsed: it took longer than 1 s.");
  assert.ok(performance.now() - started < 5000, "it was stopped at the limit, not at the end");
});

Deno.test("a worker that needs more memory than the limit is stopped", async () => {
  const bomb = await buildXlsxBomb(100);
  const failure = await refusal(
    parseInWorker({ name: "huge.xlsx", bytes: bomb }, { ...LIMITS, memoryMb: 64 }),
  );
  assert.equal(failure.message, "huge.xlsx could not be parsed: it ran out of memory (the limit is 64 MB).");
  // The next file is parsed as usual.
  const parsed = await parseInWorker(
    { name: "a.md", bytes: new TextEncoder().encode("# Still here") },
    LIMITS,
  );
  assert.equal(parsed.text, "# Still here");
});

Deno.test("a result larger than the output limit is refused", async () => {
  const text = new TextEncoder().encode("word ".repeat(300_000));
  const failure = await refusal(
    parseInWorker({ name: "long.txt", bytes: text }, { ...LIMITS, maxOutputBytes: 1024 * 1024 }),
  );
  assert.equal(failure.message, "long.txt could not be parsed: its text is larger than 1 MB.");
});
