import assert from "node:assert/strict";
import {
  contextUsage,
  fromListed,
  fromParsed,
  namesFile,
  sortAttachments,
  type ThreadFile,
} from "./thread_files.ts";

const file = (name: string, type: string) => new File(["x"], name, { type });

Deno.test("sortAttachments: PNG, JPEG, WebP and GIF go with the message, every other file to the thread", () => {
  const png = file("a.png", "image/png");
  const jpeg = file("b.jpg", "image/jpeg");
  const webp = file("c.webp", "image/webp");
  const gif = file("d.gif", "image/gif");
  const svg = file("e.svg", "image/svg+xml");
  const text = file("notes.txt", "text/plain");
  const unknown = file("blob.bin", "");
  const pdf = file("report.pdf", "application/pdf");
  const { images, documents } = sortAttachments([text, png, svg, jpeg, unknown, webp, pdf, gif]);
  assert.deepEqual(images, [png, jpeg, webp, gif]);
  assert.deepEqual(documents, [text, svg, unknown, pdf], "in the order given");
  assert.deepEqual(sortAttachments([]), { images: [], documents: [] });
});

Deno.test("fromListed and fromParsed name a file by the title the server found, else its location or upload name", () => {
  assert.deepEqual(
    fromListed({
      id: 7,
      title: "Notes",
      location: "direct-uploads/notes.txt-1.json",
      token_count_estimate: 12,
    }),
    { key: "file-7", id: 7, name: "Notes", tokens: 12, state: "ready" },
  );
  assert.equal(
    fromListed({ id: 8, title: "", location: "direct-uploads/x.json", token_count_estimate: 1 }).name,
    "x.json",
  );
  const row = {
    id: 9,
    filename: "guide.md-1.json",
    workspaceId: 1,
    userId: null,
    threadId: null,
    metadata: JSON.stringify({ title: "The guide", location: "direct-uploads/guide.md-1.json" }),
    tokenCountEstimate: 345,
    createdAt: new Date(0).toISOString(),
  };
  assert.deepEqual(fromParsed(row, "guide.md"), {
    key: "file-9",
    id: 9,
    name: "The guide",
    tokens: 345,
    state: "ready",
  });
  // The same key as the list gives it, so a reload finds the same chip.
  assert.equal(
    fromParsed(row, "guide.md").key,
    fromListed({ ...row, title: "x", location: "", token_count_estimate: 1 }).key,
  );
  assert.equal(fromParsed({ ...row, metadata: "not json" }, "guide.md").name, "guide.md");
  assert.equal(fromParsed({ ...row, metadata: "{}" }, "guide.md").name, "guide.md");
});

const ready = (id: number, tokens: number): ThreadFile => ({
  key: `file-${id}`,
  id,
  name: `f${id}`,
  tokens,
  state: "ready",
});

Deno.test("contextUsage sums the files the server holds and says when they pass the context window", () => {
  const parsing: ThreadFile = { key: "upload-1", id: null, name: "big.txt", tokens: 0, state: "parsing" };
  assert.deepEqual(contextUsage([ready(1, 1000), ready(2, 24), parsing], 4096), {
    tokens: 1024,
    percent: 25,
    over: false,
  });
  assert.deepEqual(
    contextUsage([ready(1, 4096)], 4096),
    { tokens: 4096, percent: 100, over: false },
    "exactly full",
  );
  assert.deepEqual(contextUsage([ready(1, 4096), ready(2, 1)], 4096), {
    tokens: 4097,
    percent: 100,
    over: true,
  });
  assert.deepEqual(contextUsage([ready(1, 9000)], 1000), { tokens: 9000, percent: 900, over: true });
  // A file being removed or embedded still counts until the server has let it go.
  assert.equal(contextUsage([{ ...ready(1, 10), state: "removing" }], 100).tokens, 10);
  assert.deepEqual(
    contextUsage([ready(1, 50)], null),
    { tokens: 50, percent: null, over: false },
    "no model",
  );
  assert.deepEqual(contextUsage([], 4096), { tokens: 0, percent: 0, over: false });
});

Deno.test("namesFile: a sentence that names the file is shown as it is", () => {
  assert.equal(namesFile("report.pdf could not be parsed as a PDF: bad XRef entry", "report.pdf"), true);
  assert.equal(
    namesFile(
      "File extension .bin not supported for parsing and cannot be assumed as text file type.",
      "blob.bin",
    ),
    false,
  );
  assert.equal(namesFile("anything", ""), false);
});
