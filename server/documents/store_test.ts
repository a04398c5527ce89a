import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../db/client.ts";
import { documents } from "../../db/schema.ts";
import { DocumentStore, type NewDocument, wordCount } from "./store.ts";

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
