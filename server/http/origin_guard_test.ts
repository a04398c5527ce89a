import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { hostAllowed } from "./origin_guard.ts";

const workspaces = async (app: TestApp) =>
  ((await app.json<{ workspaces: unknown[] }>("/api/workspaces")).body.workspaces ?? []).length;

/** A state-changing call as a browser sends it from a page, with the headers it adds. */
function fromPage(app: TestApp, path: string, headers: Record<string, string>, body: unknown) {
  return app.request(path, {
    method: "POST",
    headers: { "Content-Type": "text/plain;charset=UTF-8", ...headers },
    body: JSON.stringify(body),
  });
}

Deno.test("CSRF: a page on another origin cannot create a workspace, change settings or set a password", async () => {
  await using app = await createTestApp();
  const evil = { Host: "127.0.0.1:3001", Origin: "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-site" };
  for (
    const [path, body] of [
      ["/api/workspace/new", { name: "Planted" }],
      ["/api/system/update-env", {
        LLMProvider: "generic-openai",
        GenericOpenAiBasePath: "http://127.0.0.1:9/v1",
      }],
      ["/api/system/update-password", { usePassword: true, newPassword: "locked-out-owner" }],
      ["/api/system/custom-models", { provider: "generic-openai", basePath: "http://127.0.0.1:9/v1" }],
    ] as const
  ) {
    const response = await fromPage(app, path, evil, body);
    assert.equal(response.status, 403, path);
    const answer = await response.json();
    assert.equal(answer.success, false);
    assert.match(answer.error, /Requests from other web sites are refused/);
  }
  assert.equal(await workspaces(app), 0, "nothing was created");
  assert.equal(app.deps.settings.requiresAuth, false, "the owner is not locked out");
  assert.equal(app.deps.settings.value("LLMProvider") ?? null, null, "no setting changed");
});

Deno.test("CSRF: an opaque origin, and a cross-site request that hides its origin, are refused too", async () => {
  await using app = await createTestApp();
  const host = { Host: "localhost:3001" };
  const cases: Record<string, string>[] = [
    { ...host, Origin: "null" },
    { ...host, "Sec-Fetch-Site": "cross-site" },
    { ...host, "Sec-Fetch-Site": "same-site" },
    { ...host, Origin: "not a url" },
    { ...host, Origin: "http://localhost:3002" },
  ];
  for (const headers of cases) {
    const response = await fromPage(app, "/api/workspace/new", headers, { name: "Planted" });
    assert.equal(response.status, 403, JSON.stringify(headers));
    await response.body?.cancel();
  }
  assert.equal(await workspaces(app), 0);
});

Deno.test("CSRF: the instance's own pages, curl and scripts keep working", async () => {
  await using app = await createTestApp();
  const allowed: Record<string, string>[] = [
    { Host: "127.0.0.1:3001", Origin: "http://127.0.0.1:3001", "Sec-Fetch-Site": "same-origin" },
    { Host: "localhost:3001", Origin: "http://LOCALHOST:3001" },
    { Host: "localhost:3001", "Sec-Fetch-Site": "none" },
    { Host: "localhost:3001" }, // curl: no Origin, no Sec-Fetch-Site
  ];
  for (const [index, headers] of allowed.entries()) {
    const response = await fromPage(app, "/api/workspace/new", headers, { name: `Mine ${index}` });
    assert.equal(response.status, 200, JSON.stringify(headers));
    await response.body?.cancel();
  }
  assert.equal(await workspaces(app), allowed.length);
  // Reads are not refused for their origin: a browser does not let another origin read the answer.
  const read = await app.request("/api/ping", {
    headers: { Host: "localhost:3001", Origin: "http://elsewhere.test" },
  });
  assert.equal(read.status, 200);
  await read.body?.cancel();
});

Deno.test("DNS rebinding: a name the instance does not answer to is refused on every request", async () => {
  await using app = await createTestApp({ env: { ALLOWED_HOSTS: "lectern.example.org, notes.internal" } });
  // A page on a name rebound to this machine is same-origin with it, so only the Host tells it apart.
  for (const path of ["/api/workspaces", "/api/ping", "/"]) {
    const response = await app.request(path, { headers: { Host: "attacker.test:3001" } });
    assert.equal(response.status, 403, path);
    assert.match((await response.json()).error, /does not answer to the name "attacker\.test"/);
  }
  const rebound = await fromPage(app, "/api/workspace/new", {
    Host: "attacker.test:3001",
    Origin: "http://attacker.test:3001",
    "Sec-Fetch-Site": "same-origin",
  }, { name: "Planted" });
  assert.equal(rebound.status, 403);
  await rebound.body?.cancel();
  for (
    const host of ["lectern.example.org", "NOTES.internal:3001", "127.0.0.1:3001", "[::1]:3001", "localhost"]
  ) {
    const response = await app.request("/api/ping", { headers: { Host: host } });
    assert.equal(response.status, 200, host);
    await response.body?.cancel();
  }
});

Deno.test("behind a trusted proxy the origin is compared with the name the browser used", async () => {
  await using app = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const proxied = {
    Host: "127.0.0.1:3001",
    "X-Forwarded-Host": "lectern.example.org",
  };
  const same = await fromPage(app, "/api/workspace/new", {
    ...proxied,
    Origin: "https://lectern.example.org",
  }, {
    name: "Through the proxy",
  });
  assert.equal(same.status, 200);
  await same.body?.cancel();
  const other = await fromPage(app, "/api/workspace/new", { ...proxied, Origin: "https://attacker.test" }, {
    name: "Planted",
  });
  assert.equal(other.status, 403);
  await other.body?.cancel();
});

Deno.test("hostAllowed() accepts addresses, localhost and listed names only", () => {
  for (const host of ["127.0.0.1:3001", "[::1]:3001", "[fe80::1]", "localhost:3001", "app.localhost"]) {
    assert.equal(hostAllowed(host, []), true, host);
  }
  for (const host of ["attacker.test", "localhost.attacker.test:3001", "127.0.0.1.nip.io"]) {
    assert.equal(hostAllowed(host, []), false, host);
  }
  assert.equal(hostAllowed("Lectern.Example.org:443", ["lectern.example.org"]), true);
});

Deno.test("ALLOWED_HOSTS takes host names only", async () => {
  await assert.rejects(
    () => createTestApp({ env: { ALLOWED_HOSTS: "https://lectern.example.org" } }),
    /ALLOWED_HOSTS/,
  );
});
