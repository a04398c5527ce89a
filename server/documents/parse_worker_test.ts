import assert from "node:assert/strict";
import JSZip from "jszip";
import {
  closeParseWorkers,
  FrameReader,
  parseFile,
  parseInWorker,
  type ParseLimits,
  parseWorkerSettings,
  parseWorkerStats,
} from "./parse_worker.ts";
import { ParseFailure } from "./parsers/types.ts";
import { buildXlsxBomb } from "./parsers/test_files.ts";
import { estimateTokens } from "./tokens.ts";

const FIXTURES = new URL("../../tests/fixtures/documents/", import.meta.url);
const fixture = (name: string) => Deno.readFile(new URL(name, FIXTURES));
const LIMITS: ParseLimits = { timeoutSeconds: 60, memoryMb: 512, maxTextChars: 64 * 1024 * 1024 };

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
  // The worker counts each text's tokens, so the server's thread need not (upload.ts).
  assert.ok(docx.status === "fulfilled" && html.status === "fulfilled");
  for (const document of [parsed, docx.value, html.value]) {
    assert.equal(document.tokens, await estimateTokens(document.text));
  }
  assert.ok((docx.value.tokens ?? 0) > 0);
});

Deno.test("a worker that takes longer than the time limit is stopped", async () => {
  const bomb = await buildXlsxBomb(100);
  assert.ok(bomb.length < 2 * 1024 * 1024, `the bomb is small when packed (${bomb.length} bytes)`);
  const failure = await refusal(
    parseInWorker({ name: "huge.xlsx", bytes: bomb }, { ...LIMITS, timeoutSeconds: 1, memoryMb: 2048 }),
  );
  assert.equal(failure.message, "huge.xlsx could not be parsed: it took longer than 1 s.");
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

Deno.test("a text longer than the text limit is refused, in the worker and in the server's own process", async () => {
  const text = new TextEncoder().encode("word,".repeat(300_000));
  const limits = { ...LIMITS, maxTextChars: 1024 * 1024 };
  const inWorker = await refusal(parseInWorker({ name: "long.csv", bytes: text }, limits));
  assert.equal(inWorker.kind, "limit");
  assert.equal(inWorker.message, "long.csv could not be parsed: its text is larger than 1 MB.");
  const inProcess = await refusal(parseFile({ name: "long.txt", bytes: text }, limits));
  assert.equal(inProcess.message, "long.txt could not be parsed: its text is larger than 1 MB.");
  // Just under the limit is kept whole.
  const fits = await parseFile({ name: "fits.txt", bytes: text.subarray(0, 1024 * 1024) }, limits);
  assert.equal(fits.text.length, 1024 * 1024);
});

Deno.test("a zip bomb is stopped while it unpacks, before its text is held", async () => {
  const limits = { ...LIMITS, maxTextChars: 1024 * 1024, memoryMb: 2048 };
  // A 100 MB sheet packed in about 100 KB.
  const xlsx = await refusal(parseInWorker({ name: "bomb.xlsx", bytes: await buildXlsxBomb(100) }, limits));
  assert.equal(xlsx.kind, "limit");
  assert.equal(xlsx.message, "bomb.xlsx could not be parsed: it unpacks to more than 4 MB.");
  // mammoth inflates a Word body itself: it is measured before mammoth sees it.
  const body = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${
    "<w:p><w:r><w:t>boom</w:t></w:r></w:p>".repeat(200_000)
  }</w:body></w:document>`;
  const zip = new JSZip();
  zip.file("word/document.xml", body);
  const docxBytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
  assert.ok(docxBytes.length < 200 * 1024, `the Word bomb is small when packed (${docxBytes.length} bytes)`);
  const docx = await refusal(parseInWorker({ name: "bomb.docx", bytes: docxBytes }, limits));
  assert.equal(docx.message, "bomb.docx could not be parsed: it unpacks to more than 4 MB.");
});

Deno.test("one worker parses many files, and is retired for a fresh one after its share", async () => {
  await closeParseWorkers();
  const before = parseWorkerStats().spawned;
  const saved = parseWorkerSettings.filesPerWorker;
  parseWorkerSettings.filesPerWorker = 3;
  try {
    const docx = await fixture("tables.docx");
    const pids: number[] = [];
    for (let index = 0; index < 5; index++) {
      const parsed = await parseInWorker({ name: `tables-${index}.docx`, bytes: docx }, LIMITS);
      assert.equal(parsed.text.split("\n\n")[0], "Above");
      pids.push(...parseWorkerStats().pids);
    }
    // Files 1-3 in the first worker, 4-5 in a second one.
    assert.equal(parseWorkerStats().spawned - before, 2);
    assert.equal(new Set(pids).size, 2);
  } finally {
    parseWorkerSettings.filesPerWorker = saved;
    await closeParseWorkers();
  }
  assert.deepEqual(parseWorkerStats().pids, []);
});

Deno.test("a worker that dies in the middle of a file fails that file alone, and a fresh worker takes the next", async () => {
  await closeParseWorkers();
  const bomb = await buildXlsxBomb(100);
  const parsing = parseInWorker(
    { name: "slow.xlsx", bytes: bomb },
    { ...LIMITS, timeoutSeconds: 600, memoryMb: 2048, maxTextChars: 512 * 1024 * 1024 },
  );
  // The worker is killed from outside while it works.
  let pid: number | undefined;
  while (pid === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    pid = parseWorkerStats().pids[0];
  }
  Deno.kill(pid, "SIGKILL");
  const failure = await refusal(parsing);
  assert.equal(failure.message, "slow.xlsx could not be parsed: the parser stopped unexpectedly.");
  const parsed = await parseInWorker({ name: "tables.docx", bytes: await fixture("tables.docx") }, LIMITS);
  assert.equal(parsed.text.split("\n\n")[0], "Above");
  assert.equal(parseWorkerStats().pids.length, 1);
  assert.notEqual(parseWorkerStats().pids[0], pid);
  await closeParseWorkers();
});

Deno.test({
  name: "a worker starts without Deno's update check (no lookup of dl.deno.land per worker)",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await closeParseWorkers();
    try {
      const parsed = await parseInWorker({ name: "a.docx", bytes: await fixture("tables.docx") }, LIMITS);
      assert.equal(parsed.text.split("\n\n")[0], "Above");
      const [pid] = parseWorkerStats().pids;
      assert.ok(pid, "the worker is alive between files");
      const environ = Deno.readTextFileSync(`/proc/${pid}/environ`).split("\0");
      assert.ok(environ.includes("DENO_NO_UPDATE_CHECK=1"), environ.join(" "));
    } finally {
      await closeParseWorkers();
    }
  },
});

Deno.test("FrameReader gives frames whole across reads, and frees each read once all of it is copied out", async () => {
  const frames = [new Uint8Array(10).fill(1), new Uint8Array(100_000).fill(2), new Uint8Array(7).fill(3)];
  const stream = new Uint8Array(frames.reduce((sum, frame) => sum + 4 + frame.length, 0));
  let at = 0;
  for (const frame of frames) {
    new DataView(stream.buffer).setUint32(at, frame.length, true);
    stream.set(frame, at + 4);
    at += 4 + frame.length;
  }
  // Reads of 64 KiB and less, each a buffer of its own, as a process's output comes.
  const reads: Uint8Array[] = [];
  for (let start = 0; start < stream.length; start += 30_000) reads.push(stream.slice(start, start + 30_000));
  const reader = new FrameReader(ReadableStream.from(reads));
  for (const frame of frames) {
    const length = await reader.length();
    assert.equal(length, frame.length);
    assert.deepEqual(await reader.read(length!), frame);
  }
  assert.equal(await reader.length(), null);
  // The reads the big frame took whole are freed; the last, whose tail is the last frame (a view of it), is not.
  assert.deepEqual(reads.map((read) => (read.buffer as ArrayBuffer).detached), [true, true, true, false]);
});
