import { lazySchema } from "./lazy_schema.ts";
import assert from "node:assert/strict";
import * as z from "zod";
import { json, MemoryStorage, stubFetch, stubStorage } from "../testing/stubs.ts";
import { api, apiBlob, ApiError, authHeaders, onUnauthorized } from "./api.ts";
import { STORAGE_KEYS } from "./storage.ts";

/** A storage holding `token` as the stored session's token. */
function withToken(token: string | null) {
  const store = new MemoryStorage();
  if (token) store.setItem(STORAGE_KEYS.token, token);
  return stubStorage(store);
}

Deno.test("authHeaders() carries the stored token as a Bearer header, and nothing without one", () => {
  using _storage = withToken("abc");
  assert.deepEqual(authHeaders(), { Authorization: "Bearer abc" });
  using _empty = withToken(null);
  assert.deepEqual(authHeaders(), {});
});

Deno.test("api() GETs /api + path with the stored token and returns the parsed JSON", async () => {
  using _storage = withToken("abc");
  using fetch = stubFetch(() => json({ ok: 1 }));
  assert.deepEqual(await api("/system/ping"), { ok: 1 });
  assert.equal(fetch.requests.length, 1);
  const [request] = fetch.requests;
  assert.equal(request.url, "/api/system/ping");
  assert.equal(request.method, "GET");
  assert.equal(request.headers.get("authorization"), "Bearer abc");
  assert.equal(request.body, null);
});

Deno.test("api() POSTs a json body as JSON text and a form as it is; an explicit method wins", async () => {
  using _storage = withToken(null);
  using fetch = stubFetch(() => json({}));
  await api("/a", { json: { name: "x" } });
  await api("/b", { json: null });
  const form = new FormData();
  await api("/c", { form });
  await api("/d", { method: "DELETE" });
  await api("/e", { method: "PUT", json: { y: 1 } });
  assert.deepEqual(fetch.requests.map((request) => [request.method, request.body]), [
    ["POST", '{"name":"x"}'],
    ["POST", "null"],
    ["POST", "[form]"],
    ["DELETE", null],
    ["PUT", '{"y":1}'],
  ]);
  assert.equal(fetch.requests[2].init.body, form);
  assert.equal(fetch.requests[0].headers.get("authorization"), null, "no token, no header");
});

Deno.test("api() parses the answer with the schema and throws when it does not fit", async () => {
  using _storage = withToken(null);
  const schema = z.object({ count: z.number() });
  {
    using _fetch = stubFetch(() => json({ count: 3, extra: true }));
    assert.deepEqual(await api("/n", { schema }), { count: 3 });
  }
  using _fetch = stubFetch(() => json({ count: "three" }));
  await assert.rejects(api("/n", { schema }), { name: "ZodError" });
});

Deno.test("api() returns a body that is not JSON as its text, and an empty body as null", async () => {
  using _storage = withToken(null);
  {
    using _fetch = stubFetch(() => new Response("plain words"));
    assert.equal(await api("/t"), "plain words");
  }
  using _fetch = stubFetch(() => new Response(null, { status: 200 }));
  assert.equal(await api("/t"), null);
});

Deno.test("api() throws an ApiError with the server's error, else its message, else its text, else the status", async () => {
  using _storage = withToken(null);
  const cases: [Response, string, unknown][] = [
    [json({ error: "No such user", message: "ignored" }, 404), "No such user", {
      error: "No such user",
      message: "ignored",
    }],
    [json({ error: "", message: "Slow down" }, 429), "Slow down", { error: "", message: "Slow down" }],
    [new Response("  Bad gateway \n", { status: 502 }), "Bad gateway", "  Bad gateway \n"],
    [json({ error: 42 }, 400), "The server answered 400", { error: 42 }],
    [new Response("", { status: 500 }), "The server answered 500", null],
  ];
  for (const [response, message, body] of cases) {
    using _fetch = stubFetch(() => response);
    const error = await api("/x").then(() => null, (caught) => caught);
    assert.ok(error instanceof ApiError, message);
    assert.equal(error.message, message);
    assert.equal(error.status, response.status);
    assert.deepEqual(error.body, body);
    assert.equal(error.name, "ApiError");
  }
});

Deno.test("api() turns a network failure into ApiError status 0 and passes an abort through", async () => {
  using _storage = withToken(null);
  {
    using _fetch = stubFetch(() => Promise.reject(new TypeError("connection refused")));
    const error = await api("/x").then(() => null, (caught) => caught);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 0);
    assert.equal(error.message, "Cannot reach the server. Check your connection and try again.");
  }
  using _fetch = stubFetch(() => json({}));
  const controller = new AbortController();
  controller.abort();
  const aborted = await api("/x", { signal: controller.signal }).then(() => null, (caught) => caught);
  assert.equal((aborted as Error).name, "AbortError");
  assert.ok(!(aborted instanceof ApiError));
});

Deno.test("onUnauthorized() runs on a 401 only when the call carried the stored token", async () => {
  let ended = 0;
  onUnauthorized(() => ended++);
  try {
    using _fetch = stubFetch(() => json({ error: "Invalid token" }, 401));
    {
      using _storage = withToken(null);
      await assert.rejects(api("/x"), ApiError);
      assert.equal(ended, 0, "no token was sent: nothing ended");
    }
    using _storage = withToken("abc");
    await assert.rejects(api("/x"), { message: "Invalid token", status: 401 });
    assert.equal(ended, 1);
    await assert.rejects(apiBlob("/pfp"), ApiError);
    assert.equal(ended, 2, "apiBlob reports it too");
    using _forbidden = stubFetch(() => json({ error: "No" }, 403));
    await assert.rejects(api("/x"), { status: 403 });
    assert.equal(ended, 2, "a 403 does not end the session");
  } finally {
    onUnauthorized(null);
  }
  using _fetch = stubFetch(() => json({}, 401));
  using _storage = withToken("abc");
  await assert.rejects(api("/x"), ApiError);
  assert.equal(ended, 2, "a removed handler is not called");
});

Deno.test("apiBlob() returns the image, null for 204, and throws an ApiError for a failure", async () => {
  using _storage = withToken("abc");
  {
    using fetch = stubFetch(() =>
      new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "image/png" } })
    );
    const blob = await apiBlob("/system/pfp/1");
    assert.ok(blob);
    assert.equal(blob.size, 3);
    assert.equal(blob.type, "image/png");
    assert.equal(fetch.requests[0].url, "/api/system/pfp/1");
    assert.equal(fetch.requests[0].headers.get("authorization"), "Bearer abc");
  }
  {
    using _fetch = stubFetch(() => new Response(null, { status: 204 }));
    assert.equal(await apiBlob("/system/pfp/1"), null);
  }
  using _fetch = stubFetch(() => json({ error: "No such user" }, 404));
  await assert.rejects(apiBlob("/system/pfp/9"), { name: "ApiError", message: "No such user", status: 404 });
});

Deno.test("api() parses with a lazy schema, fetched alongside the call, as with the schema itself", async () => {
  using _storage = withToken(null);
  const schema = lazySchema((schemas) => schemas.auth.SuccessAnswer);
  {
    using _fetch = stubFetch(() => json({ success: true, error: null, extra: 1 }));
    assert.deepEqual(await api("/s", { schema }), { success: true, error: null });
  }
  using _fetch = stubFetch(() => json({ success: "yes" }));
  await assert.rejects(api("/s", { schema }), { name: "ZodError" });
});
