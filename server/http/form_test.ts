import assert from "node:assert/strict";
import { Hono } from "hono";
import { FormFile, readForm } from "./form.ts";

/** The fields readForm makes of `form`, with `options`. */
async function fieldsOf(form: FormData, options?: Parameters<typeof readForm>[1]) {
  let fields: Record<string, unknown> = {};
  const app = new Hono().post("/", async (c) => {
    fields = await readForm(c, options);
    return c.text("ok");
  });
  const response = await app.request("/", { method: "POST", body: form });
  assert.equal(response.status, 200, await response.text());
  return fields;
}

function sample() {
  // More than one read's worth, so the part comes in several pieces.
  const bytes = Uint8Array.from({ length: 300_000 }, (_, index) => (index * 7) % 251);
  const form = new FormData();
  form.append("note", "hello");
  form.append("file", new File([bytes], "a b.txt", { type: "text/plain" }));
  return { bytes, form };
}

Deno.test("readForm: file parts are Files by default", async () => {
  const { bytes, form } = sample();
  const fields = await fieldsOf(form);
  assert.equal(fields.note, "hello");
  const file = fields.file;
  assert.ok(file instanceof File);
  assert.equal(file.name, "a b.txt");
  assert.deepEqual(new Uint8Array(await file.arrayBuffer()), bytes);
});

Deno.test('readForm: files "bytes" hands a file part\'s bytes over once, as sent', async () => {
  const { bytes, form } = sample();
  const fields = await fieldsOf(form, { files: "bytes" });
  assert.equal(fields.note, "hello");
  const file = fields.file;
  assert.ok(file instanceof FormFile);
  assert.equal(file.name, "a b.txt");
  assert.equal(file.type, "text/plain");
  assert.equal(file.size, bytes.length);
  // Read as text it is a file, as a File is (so a file sent as a text field is refused the same way).
  assert.equal(String(file), "[object File]");
  assert.deepEqual(file.take(), bytes);
  assert.throws(() => file.take(), /taken already/);
  assert.equal(file.size, bytes.length);
});
