import assert from "node:assert/strict";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env.ts";
import { appRoutes, lazyRoutes } from "./lazy_routes.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { createTestApp } from "../testing/test_app.ts";
import { AppError } from "../errors.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import type { Actor } from "../auth/actor.ts";

/** An app like server/app.ts in small: a variable set in front, the lazy mount, a later route, an error map. */
function outerApp(load: () => Promise<Hono<AppEnv>>) {
  const app = new Hono<AppEnv>();
  app.onError((error, c) =>
    c.json(
      { mapped: error instanceof AppError ? error.message : "other" },
      error instanceof AppError ? 400 : 500,
    )
  );
  const api = new Hono<AppEnv>();
  api.use(createMiddleware<AppEnv>(async (c, next) => {
    c.set("actor", { userId: 7 } as unknown as Actor);
    await next();
  }));
  api.route("/", lazyRoutes("/api", ["/feature"], load));
  api.all("/feature/*", (c) => c.json({ later: true }, 501));
  app.route("/api", api);
  return app;
}

Deno.test("lazy routes: loaded once on first use, with the context's variables and env; unknown paths fall through; errors reach the error map", async () => {
  let loads = 0;
  const app = outerApp(() => {
    loads++;
    const routes = new Hono<AppEnv>()
      .get(
        "/feature/who",
        (c) => c.json({ userId: (c.get("actor") as unknown as { userId: number }).userId }),
      )
      .get(
        "/feature/env",
        (c) => c.json({ address: (c.env as { remoteAddr?: { hostname: string } }).remoteAddr }),
      )
      .post("/feature/echo/:id", async (c) => c.json({ id: c.req.param("id"), body: await c.req.json() }))
      .get("/feature/fail", () => {
        throw new AppError("invalid_input", "A sentence.");
      });
    return Promise.resolve(routes);
  });
  assert.equal(loads, 0);
  const who = await app.request("/api/feature/who");
  assert.deepEqual(await who.json(), { userId: 7 });
  const env = await app.request("/api/feature/env", {}, { remoteAddr: { hostname: "127.0.0.1" } });
  assert.deepEqual(await env.json(), { address: { hostname: "127.0.0.1" } });
  const echo = await app.request("/api/feature/echo/3", { method: "POST", body: JSON.stringify({ a: 1 }) });
  assert.deepEqual(await echo.json(), { id: "3", body: { a: 1 } });
  const later = await app.request("/api/feature/unknown");
  assert.equal(later.status, 501);
  assert.deepEqual(await later.json(), { later: true });
  const failed = await app.request("/api/feature/fail");
  assert.equal(failed.status, 400);
  assert.deepEqual(await failed.json(), { mapped: "A sentence." });
  // Paths outside the prefixes never load it.
  assert.equal((await app.request("/api/featured")).status, 404);
  assert.equal(loads, 1);
});

Deno.test("lazy routes: a failed load answers through the error map and is tried again on the next request", async () => {
  let loads = 0;
  const app = outerApp(() => {
    loads++;
    if (loads === 1) return Promise.reject(new Error("not yet"));
    return Promise.resolve(new Hono<AppEnv>().get("/feature/x", (c) => c.text("ok")));
  });
  assert.equal((await app.request("/api/feature/x")).status, 500);
  const second = await app.request("/api/feature/x");
  assert.equal(await second.text(), "ok");
  assert.equal(loads, 2);
});

Deno.test('lazy routes: a "*" mount catches every path, with a lazy mount inside it; appRoutes lists both in order', async () => {
  let loads = 0;
  const app = new Hono<AppEnv>();
  const api = new Hono<AppEnv>();
  api.get("/eager", (c) => c.text("eager"));
  api.route(
    "/",
    lazyRoutes("/api", ["*"], () => {
      loads++;
      const group = new Hono<AppEnv>();
      group.get("/a", (c) => c.text("a"));
      group.route(
        "/",
        lazyRoutes(
          "/api",
          ["/inner"],
          () => Promise.resolve(new Hono<AppEnv>().get("/inner/b", (c) => c.text("b"))),
        ),
      );
      group.get("/c", (c) => c.text("c"));
      return Promise.resolve(group);
    }),
  );
  api.all("*", (c) => c.text("last", 404));
  app.route("/api", api);
  assert.equal(await (await app.request("/api/eager")).text(), "eager");
  assert.equal(loads, 0, "a route in front of the mount answers without loading it");
  assert.equal(await (await app.request("/api/a")).text(), "a");
  assert.equal(await (await app.request("/api/inner/b")).text(), "b");
  assert.equal(await (await app.request("/api/c")).text(), "c");
  const unknown = await app.request("/api/unknown/path");
  assert.equal(unknown.status, 404);
  assert.equal(await unknown.text(), "last");
  assert.equal(loads, 1);
  assert.deepEqual((await appRoutes(app)).map((route) => `${route.method} ${route.path}`), [
    "GET /api/eager",
    "GET /api/a",
    "GET /api/inner/b",
    "GET /api/c",
    "ALL /api/*",
  ]);
});

Deno.test("lazy routes: a header set before an error in a mount inside a mount reaches the answer", async () => {
  const app = outerApp(() => {
    const group = new Hono<AppEnv>();
    group.route(
      "/",
      lazyRoutes("/api", ["/feature/inner"], () =>
        Promise.resolve(
          new Hono<AppEnv>().get("/feature/inner/limited", (c) => {
            c.header("Retry-After", "42");
            throw new AppError("invalid_input", "Wait.");
          }),
        )),
    );
    return Promise.resolve(group);
  });
  for (let round = 0; round < 2; round++) {
    const refused = await app.request("/api/feature/inner/limited");
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get("Retry-After"), "42");
    assert.deepEqual(await refused.json(), { mapped: "Wait." });
  }
});

Deno.test("the lazily loaded features answer as mounted eagerly: auth errors, role checks and a real call each", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "member", "default");

  // Data connectors (/api/ext): admins and managers only.
  const anonymous = await app.json("/api/ext/imports");
  assert.equal(anonymous.status, 401);
  const refused = await app.json("/api/ext/imports", bearer(member.token));
  assert.equal(refused.status, 403);
  const list = await app.json("/api/ext/imports", bearer(admin.token));
  assert.deepEqual(list, { status: 200, body: { success: true, reason: null, data: { imports: [] } } });
  const missing = await app.json("/api/ext/imports/nope", bearer(admin.token));
  assert.deepEqual(missing, {
    status: 404,
    body: { success: false, reason: "Cannot find that import.", data: {} },
  });
  const badBody = await app.json("/api/ext/github/branches", { ...bearer(admin.token), json: "{" });
  assert.equal(badBody.status, 400);
  assert.equal((badBody.body as { success: boolean }).success, false);
  // A connector the server does not have falls through to the "not yet" answer, as it did mounted eagerly.
  const other = await app.json("/api/ext/notion/sync", { ...bearer(admin.token), json: {} });
  assert.equal(other.status, 501);
  assert.match(String((other.body as { reason: string }).reason), /Data connectors other than/);
  // The origin guard still stands in front: a cross-site POST is refused before anything loads.
  const crossSite = await app.json("/api/ext/github/branches", {
    ...bearer(admin.token),
    headers: { ...bearer(admin.token).headers, Origin: "https://evil.example" },
    json: {},
  });
  assert.equal(crossSite.status, 403);

  // The MCP servers' settings (/api/mcp-servers): admins only.
  assert.equal((await app.json("/api/mcp-servers/list")).status, 401);
  assert.equal((await app.json("/api/mcp-servers/list", bearer(member.token))).status, 403);
  const servers = await app.json("/api/mcp-servers/list", bearer(admin.token));
  assert.deepEqual(servers, { status: 200, body: { success: true, error: null, servers: [] } });

  // Single sign-on (/api/auth/oidc, /api/request-token/sso/oidc), public; off here.
  const start = await app.request("/api/auth/oidc/login");
  assert.equal(start.status, 302);
  assert.equal(new URL(start.headers.get("location")!, "http://x").searchParams.get("error"), "unavailable");
  const redeem = await app.json("/api/request-token/sso/oidc?token=x");
  assert.equal(redeem.status, 403);
});

Deno.test("the developer API and its docs load on their first call, behind the same body limit, origin guard and key check", async () => {
  await using app = await createTestApp();
  const { key } = await makeApiKey(app);
  // The very first call to /api/v1: a body over the JSON limit is refused by the body limit in front.
  const tooLarge = await app.request("/api/v1/workspace/new", {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      "Content-Length": "70000000",
    },
    body: "{}",
  });
  assert.equal(tooLarge.status, 413);
  assert.match(await tooLarge.text(), /The request body is too large: the limit is 64 MB\./);
  // A cross-site write is refused by the origin guard.
  const crossSite = await app.json("/api/v1/workspace/new", {
    ...withKey(key, { headers: { Origin: "https://evil.example" } }),
    json: { name: "Nope" },
  });
  assert.equal(crossSite.status, 403);
  // No key, a wrong key, a session: refused by the key check, with the reference's answer.
  const noKey = await app.json("/api/v1/auth");
  assert.equal(noKey.status, 403);
  const wrongKey = await app.json("/api/v1/auth", withKey("WRONG-KEY"));
  assert.equal(wrongKey.status, 403);
  // Real calls.
  assert.deepEqual(await app.json("/api/v1/auth", withKey(key)), {
    status: 200,
    body: { authenticated: true },
  });
  const created = await app.json<{ workspace: { slug: string } }>(
    "/api/v1/workspace/new",
    { ...withKey(key), json: { name: "Lazy" } },
  );
  assert.equal(created.status, 200);
  assert.equal(created.body.workspace.slug, "lazy");
  // A path the API does not know answers its own 404, not the UI's.
  const unknown = await app.json("/api/v1/nothing-here", withKey(key));
  assert.deepEqual(unknown, {
    status: 404,
    body: { error: "Cannot find the API route GET /api/v1/nothing-here." },
  });
  // The docs, public, describe the routes the API serves.
  const docs = await app.json<{ paths: Record<string, unknown> }>("/api/docs/openapi.json");
  assert.equal(docs.status, 200);
  assert.ok("/v1/auth" in docs.body.paths, Object.keys(docs.body.paths).slice(0, 5).join(", "));
  const page = await app.request("/api/docs");
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<html/i);
});
