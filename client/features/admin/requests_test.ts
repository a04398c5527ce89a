import assert from "node:assert/strict";
import { ApiError } from "../../lib/api.ts";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import { act, errorIn, messageOf } from "./requests.ts";

Deno.test("act() sends the call and resolves on success", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() => json({ success: true, error: null }));
  await act("/admin/user/3", { method: "DELETE" }, "fallback");
  await act("/admin/user/3", { json: { role: "admin" } }, "fallback");
  assert.deepEqual(fetch.requests.map((request) => [request.url, request.method, request.body]), [
    ["/api/admin/user/3", "DELETE", null],
    ["/api/admin/user/3", "POST", '{"role":"admin"}'],
  ]);
});

Deno.test("act() throws the server's error whether it came as success: false, beside success, or as a status", async () => {
  using _storage = stubStorage();
  const cases: [Response, string, number][] = [
    [json({ success: false, error: "Cannot delete yourself." }), "Cannot delete yourself.", 200],
    [json({ success: true, error: "Half done." }), "Half done.", 200],
    [json({ success: false }), "The user was not changed.", 200],
    [json({ success: false, error: "" }), "The user was not changed.", 200],
    [json({ success: false, error: "Not allowed." }, 403), "Not allowed.", 403],
  ];
  for (const [response, message, status] of cases) {
    using _fetch = stubFetch(() => response);
    const error = await act("/admin/user/1", { method: "DELETE" }, "The user was not changed.").then(
      () => null,
      (caught) => caught,
    );
    assert.ok(error instanceof ApiError, message);
    assert.equal(error.message, message);
    assert.equal(error.status, status);
  }
});

Deno.test("messageOf() gives an error's message and any other value as text", () => {
  assert.equal(messageOf(new Error("boom")), "boom");
  assert.equal(messageOf(new ApiError("refused", 403, null)), "refused");
  assert.equal(messageOf("plain"), "plain");
  assert.equal(messageOf(42), "42");
});

Deno.test("errorIn() finds a non-empty string error in a JSON answer, else null", () => {
  assert.equal(errorIn({ error: "Simple SSO is off." }), "Simple SSO is off.");
  for (const body of [{ error: "" }, { error: 3 }, { message: "x" }, null, undefined, "text"]) {
    assert.equal(errorIn(body), null, JSON.stringify(body));
  }
});
