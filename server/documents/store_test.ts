import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../db/client.ts";
import { documents } from "../../db/schema.ts";
import {
  type DocumentJson,
  documentJsonPieces,
  DocumentStore,
  type NewDocument,
  PAGE_CONTENT_PIECE_CHARS,
  wordCount,
} from "./store.ts";

Deno.test("wordCount counts the pieces between single spaces, as the reference's split does", () => {
  for (const text of ["", "one", "one two", "one  two", " one ", "one\ntwo three", "   ", "a b c d e f"]) {
    assert.equal(wordCount(text), text.split(" ").length, JSON.stringify(text));
  }
  assert.equal(wordCount("one two three"), 3);
});

async function openStore() {
  const dir = await Deno.makeTempDir({ prefix: "lectern-store-" });
  const opened = await openDatabase(join(dir, "lectern.db"));
  const root = join(dir, "documents");
  return { dir, root, opened, store: new DocumentStore(opened.db, root) };
}

const newDocument = (title: string, text = `The text of ${title}.`): NewDocument => ({
  fileStem: `${title}.txt`,
  title,
  url: `file://${title}.txt`,
  docAuthor: "Unknown",
  description: "Unknown",
  docSource: "a text file uploaded by the user.",
  chunkSource: "",
  text,
});

/** Every file under `root`, as `folder/name`. */
async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  for await (const folder of Deno.readDir(root)) {
    for await (const entry of Deno.readDir(join(root, folder.name))) {
      found.push(`${folder.name}/${entry.name}`);
    }
  }
  return found.sort();
}

Deno.test("saveMany writes every document's file and all their index rows in one statement", async () => {
  const { dir, root, opened, store } = await openStore();
  try {
    const saved = await store.saveMany([newDocument("one"), { ...newDocument("two"), folder: "notes" }]);
    assert.deepEqual(saved.map((document) => document.title), ["one", "two"]);
    assert.match(saved[1].location, /^notes\/two\.txt-[0-9a-f-]{36}\.json$/);
    const rows = await opened.db.select().from(documents);
    assert.deepEqual(
      rows.map((row) => row.location).sort(),
      saved.map((document) => document.location).sort(),
    );
    assert.deepEqual(await filesUnder(root), saved.map((document) => document.location).sort());
    const read = await store.read(saved[0].location);
    assert.equal(read.pageContent, "The text of one.");
    assert.equal(read.wordCount, 4);
    assert.equal(rows.find((row) => row.title === "one")?.tokenCountEstimate, read.token_count_estimate);
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a batch whose index write fails leaves nothing half-written: no row and no file", async () => {
  const { dir, root, opened, store } = await openStore();
  try {
    await store.save(newDocument("kept"));
    // The database refuses the second row of the batch; the statement writes none of the three.
    await opened.client.execute(
      "CREATE TRIGGER refuse_broken BEFORE INSERT ON documents WHEN NEW.title = 'broken' " +
        "BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    await assert.rejects(
      store.saveMany([newDocument("first"), newDocument("broken"), newDocument("third")]),
      (error: Error) => /refused/.test(String((error.cause as Error | undefined)?.message ?? error.message)),
    );
    const rows = await opened.db.select().from(documents);
    assert.deepEqual(rows.map((row) => row.title), ["kept"]);
    assert.deepEqual(await filesUnder(root), [rows[0].location]);
    // A document whose file cannot be placed stops the batch before any row, and takes the files written back.
    await assert.rejects(
      store.saveMany([newDocument("before"), { ...newDocument("elsewhere"), folder: "../outside" }]),
    );
    assert.deepEqual(await filesUnder(root), [rows[0].location]);
    assert.equal((await opened.db.select().from(documents)).length, 1);
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("documentJsonPieces make JSON.stringify(document, null, 4) exactly, a slice of the text at a time", () => {
  const document = (text: string, pageBreaks?: number[]): DocumentJson => ({
    id: "1",
    url: "file://a.txt",
    title: 'A "title"',
    docAuthor: "Unknown",
    description: "Unknown",
    docSource: "a text file uploaded by the user.",
    chunkSource: "",
    published: "1/1/2026, 12:00:00 PM",
    wordCount: wordCount(text),
    pageContent: text,
    token_count_estimate: 3,
    ...(pageBreaks ? { pageBreaks } : {}),
  });
  const texts = [
    "",
    "short",
    // Surrogate pairs across every slice boundary, escapes, control characters, lone surrogates at either end.
    "ab😀".repeat(40),
    '"quoted" \\ back\nslash\t\u0001\u001f'.repeat(20),
    "\ud800" + "x".repeat(30) + "\udc00",
    "x".repeat(15) + "\ud83d",
    "😀".repeat(33),
    "é ü ß 中文 ".repeat(25),
  ];
  for (const text of texts) {
    for (const pageBreaks of [undefined, [0, 5, 9]]) {
      const whole = JSON.stringify(document(text, pageBreaks), null, 4);
      for (const slice of [1, 2, 3, 7, 16, 1024]) {
        const pieces = [...documentJsonPieces(document(text, pageBreaks), slice)];
        assert.equal(pieces.join(""), whole, `${JSON.stringify(text.slice(0, 20))} in slices of ${slice}`);
        if (text.length > slice) assert.ok(pieces.length > 2, "the text goes in pieces");
        for (const piece of pieces.slice(1, -1)) {
          assert.ok(piece.length <= (slice + 1) * 6, "a piece is about one slice's JSON");
        }
      }
    }
  }
});

Deno.test("a saved book's document file is the JSON of its document, written in pieces", async () => {
  const { dir, root, opened, store } = await openStore();
  try {
    const text = "A line of the book, with “quotes” and 😀.\n".repeat(2_000);
    assert.ok(text.length > PAGE_CONTENT_PIECE_CHARS * 4);
    const { stored, document } = await store.saveDocument(newDocument("Book", text));
    const written = await Deno.readTextFile(join(root, stored.location));
    assert.equal(written, JSON.stringify(document, null, 4));
    assert.equal((await store.read(stored.location)).pageContent, text);
    assert.deepEqual(await filesUnder(root), [stored.location], "no temporary file is left");
    const replaced = await store.replaceContent(stored.location, { text: text.toUpperCase() });
    assert.equal(await Deno.readTextFile(join(root, stored.location)), JSON.stringify(replaced, null, 4));
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
});
