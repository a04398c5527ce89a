import assert from "node:assert/strict";
import { createTestApp, readFrames } from "../testing/test_app.ts";
import { bearer, multiUserInstance } from "../testing/accounts.ts";

const ALLOWED = "https://app.example.org";
const OTHER = "https://evil.example.net";
const HOST = "127.0.0.1:3001";

const preflight = (origin: string, method = "POST") => ({
  method: "OPTIONS",
  headers: {
    Host: HOST,
    Origin: origin,
    "Access-Control-Request-Method": method,
    "Access-Control-Request-Headers": "authorization,content-type",
  },
});
const from = (origin: string, init: RequestInit = {}) => ({
  ...init,
  headers: { Host: HOST, Origin: origin, ...init.headers as Record<string, string> },
});
const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));

Deno.test("without CORS_ORIGINS no other origin gets CORS headers, and its changes are refused", async () => {
  await using app = await createTestApp();
  const options = await app.request("/api/workspaces", preflight(ALLOWED));
  assert.deepEqual(corsHeaders(options), []);
  await options.body?.cancel();
  const read = await app.request("/api/ping", from(ALLOWED));
  assert.equal(read.status, 200);
  assert.deepEqual(corsHeaders(read), [], "same origin only: the other page cannot read the answer");
  await read.body?.cancel();
  const write = await app.request(
    "/api/workspace/new",
    from(ALLOWED, { method: "POST", body: '{"name":"x"}' }),
  );
  assert.equal(write.status, 403);
  assert.match((await write.json()).error, /^Requests from other web sites are refused/);
});

Deno.test("CORS_ORIGINS: a named origin's preflight is answered and its requests read and change", async () => {
  await using app = await createTestApp({ env: { CORS_ORIGINS: `${ALLOWED},http://localhost:5173` } });
  const options = await app.request("/api/workspace/new", preflight(ALLOWED));
  assert.equal(options.status, 204);
  assert.equal(options.headers.get("access-control-allow-origin"), ALLOWED);
  assert.equal(
    options.headers.get("access-control-allow-methods"),
    "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
  );
  const allowHeaders = options.headers.get("access-control-allow-headers")!.toLowerCase().split(/,\s*/);
  assert.ok(
    allowHeaders.includes("authorization") && allowHeaders.includes("content-type"),
    String(allowHeaders),
  );
  assert.equal(options.headers.get("access-control-max-age"), "7200");
  assert.match(options.headers.get("vary") ?? "", /\bOrigin\b/);
  assert.equal(await options.text(), "");

  const read = await app.request("/api/workspaces", from(ALLOWED));
  assert.equal(read.status, 200);
  assert.equal(read.headers.get("access-control-allow-origin"), ALLOWED);
  assert.match(read.headers.get("vary") ?? "", /\bOrigin\b/);
  await read.body?.cancel();

  const write = await app.request(
    "/api/workspace/new",
    from(ALLOWED, { method: "POST", body: '{"name":"Atlas"}' }),
  );
  assert.equal(write.status, 200, "the cross-site guard lets an allowed origin change things");
  assert.equal(write.headers.get("access-control-allow-origin"), ALLOWED);
  assert.equal((await write.json()).workspace.name, "Atlas");
});

Deno.test("CORS_ORIGINS: other origins get no CORS headers; their preflight and changes are refused", async () => {
  await using app = await createTestApp({ env: { CORS_ORIGINS: ALLOWED } });
  const options = await app.request("/api/workspace/new", preflight(OTHER));
  assert.equal(options.status, 403);
  assert.deepEqual(corsHeaders(options), []);
  assert.deepEqual(await options.json(), {
    success: false,
    error: `Cross-origin requests from ${OTHER} are not allowed: the operator can add it to CORS_ORIGINS.`,
  });
  const read = await app.request("/api/workspaces", from(OTHER));
  assert.deepEqual(corsHeaders(read), []);
  assert.match(read.headers.get("vary") ?? "", /\bOrigin\b/, "caches keep the answers per origin apart");
  await read.body?.cancel();
  const write = await app.request(
    "/api/workspace/new",
    from(OTHER, { method: "POST", body: '{"name":"Atlas"}' }),
  );
  assert.equal(write.status, 403);
  assert.deepEqual(corsHeaders(write), []);
  assert.match((await write.json()).error, /^Requests from other web sites are refused/);
  const lookalike = await app.request("/api/workspaces", from(`${ALLOWED}.evil.example.net`));
  assert.deepEqual(corsHeaders(lookalike), []);
  await lookalike.body?.cancel();
  const list = await app.json<{ workspaces: unknown[] }>("/api/workspaces");
  assert.equal(list.body.workspaces.length, 0, "nothing was created");
});

Deno.test("CORS_ORIGINS: refusals reach an allowed page readable, and the login check still applies", async () => {
  await using app = await createTestApp({ env: { CORS_ORIGINS: ALLOWED } });
  const admin = await multiUserInstance(app);
  const anonymous = await app.request("/api/workspaces", from(ALLOWED));
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get("access-control-allow-origin"), ALLOWED);
  assert.deepEqual(await anonymous.json(), { error: "No auth token found." });
  const signedIn = await app.request("/api/workspaces", from(ALLOWED, bearer(admin.token)));
  assert.equal(signedIn.status, 200);
  assert.equal(signedIn.headers.get("access-control-allow-origin"), ALLOWED);
  await signedIn.body?.cancel();
});

Deno.test("event streams follow the CORS rule instead of allowing every origin", async () => {
  for (
    const [env, origin, expected] of [[{}, ALLOWED, null], [{ CORS_ORIGINS: ALLOWED }, ALLOWED, ALLOWED], [
      { CORS_ORIGINS: ALLOWED },
      OTHER,
      null,
    ]] as const
  ) {
    await using app = await createTestApp({ env });
    const response = await app.request("/api/system/embedding-jobs/progress", from(origin));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    assert.equal(
      response.headers.get("access-control-allow-origin"),
      expected,
      `${origin} with ${JSON.stringify(env)}`,
    );
    assert.equal((await readFrames(response))[0].type, "idle");
  }
});
