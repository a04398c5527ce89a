import assert from "node:assert/strict";
import { createTestApp } from "../testing/test_app.ts";

Deno.test("a refused preset says why in both `error` and `message`, the field the reference's client shows", async () => {
  await using app = await createTestApp();
  const created = await app.json<{ preset: { id: number } }>("/api/system/slash-command-presets", {
    json: { command: "summary", prompt: "Summarise.", description: "" },
  });
  assert.equal(created.status, 201);

  const reserved = await app.json<Record<string, unknown>>("/api/system/slash-command-presets", {
    json: { command: "/reset", prompt: "x" },
  });
  assert.equal(reserved.status, 400);
  assert.equal(reserved.body.success, false);
  assert.equal(typeof reserved.body.message, "string");
  assert.equal(reserved.body.message, reserved.body.error);

  // A body the schema refuses (the command's characters, a missing prompt) says why in both fields as well.
  for (const json of [{ command: "/no spaces", prompt: "x" }, { command: "tides" }]) {
    for (
      const path of [
        "/api/system/slash-command-presets",
        `/api/system/slash-command-presets/${created.body.preset.id}`,
      ]
    ) {
      const refused = await app.json<Record<string, unknown>>(path, { json });
      assert.equal(refused.status, 400, path);
      assert.equal(refused.body.success, false);
      assert.equal(typeof refused.body.message, "string", `${path} ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.message, refused.body.error);
    }
  }

  const duplicate = await app.json<Record<string, unknown>>("/api/system/slash-command-presets", {
    json: { command: "summary", prompt: "Again." },
  });
  assert.equal(duplicate.status, 409);
  assert.equal(duplicate.body.message, duplicate.body.error);
  assert.match(String(duplicate.body.message), /summary/);

  const missing = await app.json<Record<string, unknown>>("/api/system/slash-command-presets/9999", {
    json: { command: "other", prompt: "x" },
  });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.message, missing.body.error);
  assert.ok(String(missing.body.message).length > 0);
});
