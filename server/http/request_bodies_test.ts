import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { bearer, multiUserInstance } from "../testing/accounts.ts";

/**
 * Bad request bodies of the routes whose answers no feature test pins, checked status and body exactly: the
 * shared schemas that read them must answer as the hand-written checks they replaced did.
 */

const png = "data:image/png;base64,iVBORw0KGgo=";

async function workspace(app: TestApp): Promise<string> {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Atlas" },
  });
  return created.body.workspace.slug;
}

Deno.test("stream-chat refuses bad attachments and a body that is no object with abort JSON", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app);
  const send = async (body: unknown) => {
    const answer = await app.json<Record<string, unknown>>(`/api/workspace/${slug}/stream-chat`, {
      json: JSON.stringify(body),
    });
    return { status: answer.status, type: answer.body.type, error: answer.body.error };
  };
  assert.deepEqual(await send({ message: "hi", attachments: "x" }), {
    status: 400,
    type: "abort",
    error: "attachments must be a list.",
  });
  const six = Array.from({ length: 6 }, () => ({ name: "a.png", contentString: png }));
  assert.deepEqual(await send({ message: "hi", attachments: six }), {
    status: 400,
    type: "abort",
    error: "At most 5 images can be attached to a message.",
  });
  assert.deepEqual(
    await send({ message: "hi", attachments: [{ contentString: "data:text/plain;base64,aGk=" }] }),
    {
      status: 400,
      type: "abort",
      error: "image-1 is not a PNG, JPEG, WebP or GIF image sent as a data URL.",
    },
  );
  const huge = `data:image/png;base64,${"A".repeat(14 * 1024 * 1024)}`;
  assert.deepEqual(await send({ message: "hi", attachments: [{ name: " big.png ", contentString: huge }] }), {
    status: 400,
    type: "abort",
    error: "big.png is too large: images can be at most 10 MB.",
  });
  assert.deepEqual(await send(null), { status: 400, type: "abort", error: "Message is empty." });
  assert.deepEqual(await send({ message: 42 }), { status: 400, type: "abort", error: "Message is empty." });
  // The message is checked before the pictures.
  assert.deepEqual(await send({ message: " ", attachments: "x" }), {
    status: 400,
    type: "abort",
    error: "Message is empty.",
  });
});

Deno.test("native model downloads refuse an unknown or built-in model", async () => {
  await using app = await createTestApp();
  const download = (json: unknown) =>
    app.json("/api/system/native-embedding-models/download", { json: JSON.stringify(json) });
  assert.deepEqual(await download({ model: "no-such-model" }), {
    status: 400,
    body: { success: false, error: 'Unknown native embedding model "no-such-model".' },
  });
  assert.deepEqual(await download(null), {
    status: 400,
    body: { success: false, error: "model must be the id of a native embedding model." },
  });
  assert.deepEqual(await download({ model: "lectern-lexical-v1" }), {
    status: 400,
    body: { success: false, error: "Lectern lexical is built in and needs no download." },
  });
});

Deno.test("settings, prompt variables and embed-queue bodies answer their refusals", async () => {
  await using app = await createTestApp();
  assert.deepEqual(await app.json("/api/system/update-env", { json: "[1, 2]" }), {
    status: 400,
    body: { newValues: {}, error: "The settings must be a JSON object of setting names and values." },
  });
  assert.deepEqual(await app.json("/api/system/update-env", { json: "null" }), {
    status: 400,
    body: { newValues: {}, error: "The settings must be a JSON object of setting names and values." },
  });
  // Every name sent is checked, even one that is special to JavaScript objects.
  assert.deepEqual(await app.json("/api/system/update-env", { json: '{"__proto__": {"a": 1}}' }), {
    status: 400,
    body: { newValues: {}, error: 'Unknown setting "__proto__".' },
  });
  assert.deepEqual(
    await app.json("/api/system/prompt-variables", {
      json: { key: "team", value: "Blue", description: `  ${"d".repeat(1001)}  ` },
    }),
    { status: 400, body: { success: false, error: "Description must be at most 1000 characters" } },
  );
  // A built-in key is a conflict even for a variable that does not exist.
  assert.deepEqual(
    await app.json("/api/system/prompt-variables/999", { method: "PUT", json: { key: "date", value: "x" } }),
    { status: 409, body: { success: false, error: "{date} is a built-in variable; choose another key." } },
  );
  const slug = await workspace(app);
  assert.deepEqual(
    await app.json(`/api/workspace/${slug}/embed-queue`, { method: "DELETE", json: { filename: "  " } }),
    { status: 400, body: { success: false, error: "Missing filename" } },
  );
  assert.deepEqual(await app.json(`/api/workspace/${slug}/embed-queue`, { method: "DELETE", json: "[]" }), {
    status: 400,
    body: { success: false, error: "Missing filename" },
  });
});

Deno.test("account, sign-in and invite bodies that are no object or miss fields get the usual refusals", async () => {
  await using app = await createTestApp();
  const noAdmin = await app.json("/api/system/enable-multi-user", { json: { password: "admin-password" } });
  assert.deepEqual(noAdmin, { status: 400, body: { success: false, error: "Username is required." } });
  const admin = await multiUserInstance(app);
  const account = (json: unknown) =>
    app.json("/api/system/user", { ...bearer(admin.token), json: JSON.stringify(json) });
  assert.deepEqual(await account({ bio: 7 }), {
    status: 400,
    body: { success: false, error: "Bio must be text of at most 1000 characters." },
  });
  assert.deepEqual(await account({ bio: "b".repeat(1001) }), {
    status: 400,
    body: { success: false, error: "Bio must be text of at most 1000 characters." },
  });
  assert.deepEqual(await account({ preferredLanguage: "sv" }), {
    status: 400,
    body: { success: false, error: 'Language "sv" is not available.' },
  });
  assert.deepEqual(await account(null), {
    status: 400,
    body: { success: false, error: "No updates provided" },
  });
  assert.deepEqual(await app.json("/api/request-token", { json: "null" }), {
    status: 401,
    body: { user: null, valid: false, token: null, message: "[001] Invalid login credentials." },
  });
  assert.deepEqual(await app.json("/api/request-token", { json: { username: ["admin"], password: 5 } }), {
    status: 401,
    body: { user: null, valid: false, token: null, message: "[001] Invalid login credentials." },
  });
  const recovery = await app.json("/api/system/recover-account", {
    json: { username: "admin", recoveryCodes: "not a list" },
  });
  assert.deepEqual(recovery, {
    status: 400,
    body: { success: false, error: "Invalid recovery codes.", message: "Invalid recovery codes." },
  });
  const reset = await app.json("/api/system/reset-password", {
    json: { newPassword: " long-enough-password ", confirmPassword: "long-enough-password" },
  });
  assert.deepEqual(reset, {
    status: 400,
    body: {
      success: false,
      error: "Invalid or expired reset token.",
      message: "Invalid or expired reset token.",
    },
  });
  const invite = await app.json<{ invite: { code: string } }>("/api/admin/invite/new", {
    ...bearer(admin.token),
    json: {},
  });
  const accept = await app.json(`/api/invite/${invite.body.invite.code}`, { json: "null" });
  assert.deepEqual(accept, { status: 400, body: { success: false, error: "Username is required." } });
});
