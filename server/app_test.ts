import assert from "node:assert/strict";
import { Hono } from "hono";
import { createTestApp } from "./testing/test_app.ts";
import { createApp } from "./app.ts";
import { apiRoutes } from "./api_routes.ts";
import { appRoutes } from "./http/lazy_routes.ts";
import type { AppEnv } from "./http/env.ts";
import {
  BUILT_SETTINGS_PAGES,
  ONBOARDING_STEPS,
  SETTINGS_PAGES,
  WORKSPACE_SETTINGS_TABS,
} from "../shared/routes.ts";

Deno.test("GET /api/ping answers online", async () => {
  await using app = await createTestApp();
  const answer = await app.json("/api/ping");
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { online: true });
});

Deno.test("the API's routes but /api/ping are one lazy group: before a call only its catch-all is mounted; it serves them in their order, after /api/ping and before the JSON 404", async () => {
  await using app = await createTestApp();
  const lazy = createApp(app.deps);
  const mounted = lazy.routes.filter((route) => route.path.startsWith("/api"));
  assert.ok(mounted.length < 10, `the API's routes are mounted at start: ${mounted.length} routes`);
  const served = (await appRoutes(lazy)).map((route) => `${route.method} ${route.path}`);
  const eager = (await appRoutes(new Hono<AppEnv>().route("/api", apiRoutes(app.deps))))
    .map((route) => `${route.method} ${route.path}`);
  assert.ok(eager.length > 200, `only ${eager.length} routes: the table is wrong`);
  const ping = served.indexOf("GET /api/ping");
  assert.ok(ping >= 0);
  assert.deepEqual(served.slice(ping + 1, ping + 1 + eager.length), eager);
  assert.equal(served[ping + 1 + eager.length], "ALL /api/*", "the JSON 404 comes after the group");
  // The first call loads the group and answers as an eager route would.
  const first = await app.json("/api/setup-complete");
  assert.equal(first.status, 200);
  assert.equal(typeof first.body.results, "object");
});

Deno.test("an unknown /api path is a JSON 404, never the HTML page", async () => {
  await using app = await createTestApp();
  for (const method of ["GET", "POST", "DELETE"]) {
    const response = await app.request("/api/no/such/route", { method });
    assert.equal(response.status, 404);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    assert.equal((await response.json()).success, false);
  }
});

Deno.test("answers carry the security headers", async () => {
  await using app = await createTestApp();
  const response = await app.request("/");
  await response.body?.cancel();
  assert.equal(response.headers.get("x-frame-options"), "DENY");
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  assert.match(response.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  assert.match(response.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
});

const PAGES: [string, string[]][] = [
  ["/", ["Sidebar", "Home", "Toaster"]],
  ["/login", ["Login"]],
  ["/login?nt=1", ["Login"]],
  ["/sso/simple?token=abc&redirectTo=/", ["SsoLanding"]],
  ["/accept-invite/ABC-123", ["AcceptInvite"]],
  ["/workspace/anything", ["Sidebar", "WorkspaceChat"]],
  ["/workspace/anything/t/some-thread", ["WorkspaceChat"]],
  ...WORKSPACE_SETTINGS_TABS.map((
    tab,
  ): [string, string[]] => [`/workspace/w/settings/${tab}`, ["WorkspaceSettings"]]),
  ["/onboarding", ["Onboarding"]],
  ...ONBOARDING_STEPS.map((step): [string, string[]] => [`/onboarding/${step}`, ["Onboarding"]]),
  ["/onboarding/survey", ["Onboarding"]],
  ["/onboarding/embedding-preference", ["Onboarding"]],
  ["/onboarding/vector-database", ["Onboarding"]],
  ...BUILT_SETTINGS_PAGES.map((
    page,
  ): [string, string[]] => [`/settings/${page}`, ["Sidebar", "SettingsMenu"]]),
];

Deno.test("every route of the spec's route table renders a page whose islands and scripts are present", async () => {
  await using app = await createTestApp();
  for (const [path, islands] of PAGES) {
    const response = await app.request(path);
    assert.equal(response.status, 200, path);
    const html = await response.text();
    assert.ok(html.startsWith("<!DOCTYPE html>"), path);
    for (const island of islands) {
      assert.ok(html.includes(`data-island="${island}"`), `${path} has ${island}`);
    }
    const script = html.match(/<script type="module" src="(\/static\/assets\/[^"]+\.js)">/);
    assert.ok(script, `${path} loads the client`);
    assert.match(html, /<link rel="stylesheet" href="\/static\/assets\/[^"]+\.css"\/>/);
    for (const island of islands) {
      assert.match(
        html,
        new RegExp(`<link rel="modulepreload" href="/static/assets/${island}-[^"]+\\.js"/>`),
        path,
      );
    }
  }
});

Deno.test("an unknown page or workspace settings tab is a 404 page", async () => {
  await using app = await createTestApp();
  for (const path of ["/nowhere", "/workspace/w/settings/bogus", "/onboarding/bogus", "/settings/bogus"]) {
    const response = await app.request(path);
    assert.equal(response.status, 404, path);
    assert.match(await response.text(), /<!DOCTYPE html>/);
  }
});

Deno.test("a screen that is not built yet is a 404 page, and the settings menu does not list it", async () => {
  await using app = await createTestApp();
  const unbuilt = Object.keys(SETTINGS_PAGES).filter((page) =>
    !(BUILT_SETTINGS_PAGES as string[]).includes(page)
  );
  for (const path of ["/fine-tuning", ...unbuilt.map((page) => `/settings/${page}`)]) {
    const response = await app.request(path);
    assert.equal(response.status, 404, path);
    await response.body?.cancel();
  }
  const menu = await (await app.request("/settings/llm-preference")).text();
  for (const page of unbuilt) assert.ok(!menu.includes(`href="/settings/${page}"`), page);
  for (const page of BUILT_SETTINGS_PAGES) assert.ok(menu.includes(`href="/settings/${page}"`), page);
});

Deno.test("built assets are served with immutable caching; the manifest is not served", async () => {
  await using app = await createTestApp();
  const html = await (await app.request("/")).text();
  const script = html.match(/src="(\/static\/assets\/[^"]+\.js)"/)![1];
  const asset = await app.request(script);
  assert.equal(asset.status, 200);
  assert.equal(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
  await asset.body?.cancel();
  const manifest = await app.request("/static/.vite/manifest.json");
  assert.equal(manifest.status, 404);
  await manifest.body?.cancel();
  const traversal = await app.request("/static/assets/..%2f..%2f..%2fdeno.json");
  assert.notEqual(traversal.status, 200);
  await traversal.body?.cancel();
});

Deno.test("branding calls answer without a login, even on a protected instance", async () => {
  await using app = await createTestApp();
  await app.json("/api/system/update-password", {
    json: { usePassword: true, newPassword: "correct horse" },
  });
  assert.deepEqual((await app.json("/api/system/support-email")).body, { supportEmail: null, email: null });
  assert.deepEqual((await app.json("/api/system/custom-app-name")).body, {
    customAppName: null,
    appName: null,
  });
  assert.deepEqual((await app.json("/api/system/footer-data")).body, { footerData: "[]" });
  const logo = await app.request("/api/system/logo");
  assert.equal(logo.status, 200);
  assert.equal(logo.headers.get("x-is-custom-logo"), "false");
  assert.match(await logo.text(), /^<svg/);
  assert.equal((await app.json("/api/workspaces")).status, 401, "everything else stays behind the login");
});

/** A body of `bytes` sent as a stream (chunked, no Content-Length), as an attacker can send it. */
function streamedBody(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.length;
    },
  });
}

Deno.test("resource abuse: every body is bounded before it is read, whatever its Content-Type claims", async () => {
  await using app = await createTestApp({ env: { MAX_UPLOAD_MB: "1" } });
  const cases: [string, string, number, string][] = [
    // A login needs kilobytes; a multipart type no longer lifts the bound.
    ["/api/request-token", "multipart/form-data; boundary=x", 300 * 1024, "64 KB"],
    ["/api/request-token", "text/plain", 300 * 1024, "64 KB"],
    ["/api/system/recover-account", "application/json", 100 * 1024, "64 KB"],
    ["/api/invite/ANY-CODE", "application/json", 100 * 1024, "64 KB"],
    // Multipart elsewhere is bounded by the upload limit, even on a route that takes no upload.
    ["/api/workspace/new", "multipart/form-data; boundary=x", 7 * 1024 * 1024, "6 MB"],
  ];
  for (const [path, type, bytes, limit] of cases) {
    for (const stream of [false, true]) {
      const response = await app.request(path, {
        method: "POST",
        headers: { "Content-Type": type },
        body: stream ? streamedBody(bytes) : new Uint8Array(bytes),
      });
      assert.equal(response.status, 413, `${path} ${type} ${stream ? "streamed" : "with a length"}`);
      const answer = await response.json();
      assert.equal(answer.error, `The request body is too large: the limit is ${limit}.`);
    }
  }
  // A login of ordinary size is still read.
  const login = await app.json("/api/request-token", { json: { password: "x".repeat(1000) } });
  assert.equal(login.status, 200);
});

Deno.test("the storage folder and the database are readable by the server's user only", async () => {
  await using app = await createTestApp();
  await app.json("/api/workspace/new", { json: { name: "Private" } });
  const mode = async (path: string) => ((await Deno.stat(path)).mode ?? 0) & 0o777;
  assert.equal(await mode(app.deps.paths.root), 0o700, "the storage folder");
  assert.equal(await mode(app.deps.paths.database), 0o600, "lectern.db");
  for (const journal of ["-wal", "-shm"]) {
    const path = `${app.deps.paths.database}${journal}`;
    if (await Deno.stat(path).then(() => true, () => false)) assert.equal(await mode(path), 0o600, journal);
  }
});
