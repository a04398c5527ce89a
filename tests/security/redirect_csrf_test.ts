import assert from "node:assert/strict";
import { safeRedirect } from "../../client/features/auth/session.ts";
import { createApp } from "../../server/app.ts";
import { appRoutes } from "../../server/http/lazy_routes.ts";
import { createTestApp } from "../../server/testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { databaseBytes, newWorkspace } from "./support.ts";

const ORIGIN = "https://lectern.example";
const FOREIGN =
  "Requests from other web sites are refused: open this instance itself, or call the API without a browser.";

Deno.test("security: safeRedirect keeps every redirect on this site", async (t) => {
  const stays = (target: string | null | undefined) => {
    const result = safeRedirect(target, ORIGIN);
    assert.ok(
      result.startsWith("/") && !result.startsWith("//") && !result.startsWith("/\\"),
      JSON.stringify(target),
    );
    assert.equal(new URL(result, ORIGIN).origin, ORIGIN, JSON.stringify(target));
    return result;
  };

  const offSite: [string, string[]][] = [
    ["protocol-relative '//host' in any number of slashes", [
      "//evil.test",
      "///evil.test",
      "////evil.test/x",
    ]],
    ["backslashes the browser reads as slashes", [
      "/\\evil.test",
      "\\\\evil.test",
      "\\/evil.test",
      "/\\\\evil.test",
    ]],
    ["tabs and line breaks the URL parser drops ('/%0A/' decoded)", [
      "/\t/evil.test",
      "/\n/evil.test",
      "/\r/evil.test",
    ]],
    ["scheme-relative 'https:host' forms", ["https:evil.test", "https:/evil.test", "http:\\\\evil.test"]],
    ["absolute URLs of another site", [
      "http://evil.test",
      "HTTPS://evil.test",
      "https://lectern.example.evil.test/",
    ]],
    ["script and data schemes", [
      "javascript:alert(document.domain)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox",
    ]],
    ["leading control characters and spaces", ["\u0000//evil.test", " //evil.test", " /\\/evil.test"]],
    ["bare host names and user-info", ["evil.test", "@evil.test", "evil.test/path"]],
    ["dot segments that collapse into '//host'", [
      "/..//evil.test",
      "/.%2e/%2e%2e//evil.test",
      "/a/..//evil.test",
      "/./\\evil.test",
      "/%2e%2e//evil.test",
    ]],
  ];
  for (const [kind, targets] of offSite) {
    await t.step(`[open-redirect] ${kind} become home`, () => {
      for (const target of targets) assert.equal(safeRedirect(target, ORIGIN), "/", JSON.stringify(target));
    });
  }

  await t.step("[open-redirect] encoded slashes and line breaks stay a path on this site", () => {
    for (
      const target of [
        "/%0A/evil.test",
        "/%2F%2Fevil.test",
        "/%5C%5Cevil.test",
        "/%09/evil.test",
        "/ /evil.test",
      ]
    ) {
      const result = stays(target);
      assert.ok(result.startsWith("/%"), `${target} → ${result}`);
    }
  });

  await t.step("[open-redirect] user-info and host tricks inside a path stay on this site", () => {
    for (
      const target of [
        "/@evil.test",
        "/evil.test@lectern.example",
        "/a/b/../../c",
        "/..;/evil.test",
        "/?next=//evil.test",
      ]
    ) {
      stays(target);
    }
  });

  await t.step("[open-redirect] a same-site path keeps its query and fragment (the control)", () => {
    assert.equal(safeRedirect("/workspace/notes?x=1#top", ORIGIN), "/workspace/notes?x=1#top");
    assert.equal(
      safeRedirect(`${ORIGIN}/workspace/notes`, ORIGIN),
      "/",
      "absolute URLs are refused even for this site",
    );
  });

  await t.step(
    "[open-redirect] the server's SSO token call and page answer without any Location header",
    async () => {
      await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1" } });
      const admin = await multiUserInstance(app);
      const bob = await addUser(app, admin, "bob", "default");
      const issued = await app.json<{ token: string }>(`/api/admin/user/${bob.user.id}/issue-auth-token`, {
        ...bearer(admin.token),
        method: "POST",
      });
      for (const redirectTo of ["//evil.test", "https://evil.test", "/\\evil.test", "javascript:alert(1)"]) {
        const page = await app.request(`/sso/simple?token=x&redirectTo=${encodeURIComponent(redirectTo)}`);
        assert.equal(page.status, 200);
        assert.equal(page.headers.get("location"), null);
        await page.body?.cancel();
        const api = await app.request(
          `/api/request-token/sso/simple?token=nope&redirectTo=${encodeURIComponent(redirectTo)}`,
        );
        assert.equal(api.status, 401);
        assert.equal(api.headers.get("location"), null);
        await api.body?.cancel();
      }
      const redeemed = await app.request(
        `/api/request-token/sso/simple?token=${issued.body.token}&redirectTo=//evil.test`,
      );
      assert.equal(redeemed.status, 200);
      assert.equal(
        redeemed.headers.get("location"),
        null,
        "the answer is JSON; the page decides where to go",
      );
      assert.equal((await redeemed.json()).valid, true);
    },
  );
});

Deno.test("security: every state-changing route refuses cross-site browser requests and changes nothing", async (t) => {
  await using app = await createTestApp();
  const slug = await newWorkspace(app, "Target");
  const routes = (await appRoutes(createApp(app.deps)))
    .filter((route) => !["GET", "HEAD", "OPTIONS", "ALL"].includes(route.method) && !route.path.includes("*"))
    .map((route) => ({
      method: route.method,
      path: route.path.replace(/:slug/g, slug).replace(/:threadSlug/g, "t").replace(/:[A-Za-z]+/g, "1"),
    }));
  assert.ok(routes.length >= 50, `every state-changing route is walked (${routes.length})`);
  const before = await databaseBytes(app);
  const workspacesBefore = JSON.stringify((await app.json("/api/workspaces")).body);

  const attempt = async (headers: Record<string, string>, label: string) => {
    for (const { method, path } of routes) {
      const response = await app.request(path, {
        method,
        headers: { "Content-Type": "text/plain", ...headers },
        body: method === "DELETE" && path.endsWith(slug)
          ? undefined
          : '{"name":"Pwned","usePassword":true,"newPassword":"pwned-password"}',
      });
      assert.equal(response.status, 403, `${label}: ${method} ${path}`);
      assert.deepEqual(
        await response.json(),
        { success: false, error: FOREIGN },
        `${label}: ${method} ${path}`,
      );
    }
  };

  for (
    const [label, headers] of [
      ["a foreign Origin", { Origin: "https://evil.test" }],
      ["Origin: null (a sandboxed frame or file page)", { Origin: "null" }],
      ["an Origin that only starts like this one", { Origin: "http://localhost.evil.test" }],
      ["an Origin with this host on another port", { Origin: "http://localhost:9999" }],
      ["an unparsable Origin", { Origin: "not a url" }],
      ["Sec-Fetch-Site: cross-site without Origin", { "Sec-Fetch-Site": "cross-site" }],
      ["Sec-Fetch-Site: same-site without Origin (a sibling subdomain)", { "Sec-Fetch-Site": "same-site" }],
    ] as const
  ) {
    await t.step(`[csrf] every POST, PUT and DELETE with ${label} is 403`, async () => {
      await attempt(headers, label);
    });
  }

  await t.step(
    "[csrf] after every refused request the database and the workspaces are unchanged",
    async () => {
      assert.equal(await databaseBytes(app), before, "nothing was written");
      assert.equal(JSON.stringify((await app.json("/api/workspaces")).body), workspacesBefore);
      assert.equal(app.deps.settings.requiresAuth, false, "no password was set");
    },
  );

  await t.step(
    "[csrf] the same origin, Sec-Fetch-Site same-origin or none, and no Origin are accepted",
    async () => {
      const accepted: Record<string, string>[] = [
        { Origin: "http://localhost" },
        { "Sec-Fetch-Site": "same-origin" },
        { "Sec-Fetch-Site": "none" },
        {},
      ];
      for (
        const headers of [
          ...accepted.slice(1),
        ]
      ) {
        const answer = await app.request("/api/workspace/new", {
          method: "POST",
          headers,
          body: JSON.stringify({ name: `Allowed ${JSON.stringify(headers)}` }),
        });
        assert.equal(answer.status, 200, JSON.stringify(headers));
      }
    },
  );

  await t.step(
    "[csrf] reading is not refused cross-site (GET changes nothing), so the guard is not over-broad",
    async () => {
      const answer = await app.request("/api/workspaces", { headers: { Origin: "https://evil.test" } });
      assert.equal(answer.status, 200);
    },
  );
});

Deno.test("security: a Host name the instance does not answer to (DNS rebinding) is refused", async (t) => {
  await using app = await createTestApp({ env: { ALLOWED_HOSTS: "lectern.example" } });
  const refused = (name: string) => ({
    success: false,
    error: `This instance does not answer to the name "${name}". Open it by its address or localhost, ` +
      "or add the name to ALLOWED_HOSTS.",
  });

  await t.step("[csrf] a rebound name is refused for reads and writes alike", async () => {
    for (
      const host of [
        "evil.test",
        "evil.test:3001",
        "lectern.example.evil.test",
        "EVIL.TEST",
        "localhost.evil.test",
      ]
    ) {
      for (const method of ["GET", "POST"]) {
        const response = await app.request("/api/workspaces", { method, headers: { Host: host } });
        assert.equal(response.status, 403, `${method} ${host}`);
        assert.deepEqual(await response.json(), refused(host.toLowerCase().replace(/:\d+$/, "")));
      }
    }
  });

  await t.step("[csrf] IP addresses, localhost and the listed name are answered", async () => {
    for (
      const host of [
        "127.0.0.1:3001",
        "[::1]:3001",
        "localhost",
        "app.localhost:3001",
        "lectern.example",
        "LECTERN.EXAMPLE:443",
      ]
    ) {
      const response = await app.request("/api/ping", { headers: { Host: host } });
      assert.equal(response.status, 200, host);
    }
  });

  await t.step("[csrf] X-Forwarded-Host is not believed without TRUST_PROXY", async () => {
    const response = await app.request("/api/workspaces", {
      headers: { Host: "evil.test", "X-Forwarded-Host": "lectern.example" },
    });
    assert.equal(response.status, 403);
  });

  await t.step(
    "[csrf] the page of a rebound name is refused too, so a script there cannot read it",
    async () => {
      const response = await app.request("/", { headers: { Host: "evil.test" } });
      assert.equal(response.status, 403);
      await response.body?.cancel();
    },
  );
});
