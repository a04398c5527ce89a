import assert from "node:assert/strict";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import { removeProfilePicture, updateAccount, uploadProfilePicture } from "./account_api.ts";

Deno.test("updateAccount() sends only the filled-in fields and returns the new token", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() => json({ success: true, error: null, token: "fresh" }));
  assert.equal(await updateAccount({ username: "dora", password: "", preferredLanguage: "en" }), "fresh");
  assert.equal(fetch.requests[0].url, "/api/system/user");
  assert.equal(fetch.requests[0].method, "POST");
  assert.deepEqual(JSON.parse(fetch.requests[0].body!), { username: "dora", preferredLanguage: "en" });
});

Deno.test("updateAccount() returns null without a new token and throws the server's error", async () => {
  using _storage = stubStorage();
  {
    using _fetch = stubFetch(() => json({ success: true, error: null }));
    assert.equal(await updateAccount({ username: "dora" }), null);
  }
  {
    using _fetch = stubFetch(() => json({ success: false, error: "That username is already taken." }));
    await assert.rejects(updateAccount({ username: "taken" }), {
      message: "That username is already taken.",
    });
  }
  using _fetch = stubFetch(() => json({ success: false, error: null }));
  await assert.rejects(updateAccount({ username: "x" }), { message: "The account could not be updated." });
});

Deno.test("uploadProfilePicture() posts the file as a form; removeProfilePicture() deletes it", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() => json({ success: true, error: null }));
  await uploadProfilePicture(new File(["x"], "me.png", { type: "image/png" }));
  await removeProfilePicture();
  assert.deepEqual(fetch.requests.map((request) => [request.url, request.method, request.body]), [
    ["/api/system/upload-pfp", "POST", "[form]"],
    ["/api/system/remove-pfp", "DELETE", null],
  ]);
  const form = fetch.requests[0].init.body as FormData;
  assert.equal((form.get("file") as File).name, "me.png");
});

Deno.test("uploadProfilePicture() and removeProfilePicture() throw the server's error, else a fallback", async () => {
  using _storage = stubStorage();
  {
    using _fetch = stubFetch(() => json({ success: false, error: "Not an image." }));
    await assert.rejects(uploadProfilePicture(new File(["x"], "a.txt")), { message: "Not an image." });
  }
  using _fetch = stubFetch(() => json({ success: false }));
  await assert.rejects(uploadProfilePicture(new File(["x"], "a.png")), { message: "Error uploading pfp." });
  await assert.rejects(removeProfilePicture(), { message: "Error removing pfp." });
});
