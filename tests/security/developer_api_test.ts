import assert from "node:assert/strict";
import { developerApi } from "../../server/developer_api/routes.ts";
import type { V1Route } from "../../server/developer_api/router.ts";
import { addUser, multiUserInstance } from "../../server/testing/accounts.ts";
import { makeApiKey, withKey } from "../../server/testing/api_keys.ts";
import { createTestApp, type TestApp } from "../../server/testing/test_app.ts";

/**
 * Every route of the developer API (the router's own list, so a new route is walked without a line here),
 * called with no key, with sessions of the UI, with a deleted key and with keys of each scope. Refusals come
 * from the route's declared need, checked before the handler reads anything.
 */

interface Places {
  open: string;
  other: string;
  thread: string;
}

/** A concrete path for a route: its workspace is `slug`, the other parameters name things that may not exist. */
function pathOf(route: V1Route, slug: string, places: Places): string {
  const filled = route.path
    .replace(":slug", slug)
    .replace(":threadSlug", places.thread)
    .replace(/:[A-Za-z]+\{[^}]*\}|:[A-Za-z]+/g, "1")
    .replace(/\*$/, "anything");
  return `/api/v1${filled}`;
}

async function call(app: TestApp, route: V1Route, path: string, key: string | null) {
  const init = key ? withKey(key) : {};
  const method = route.method.toUpperCase();
  const response = await app.request(path, { ...init, method, body: method === "GET" ? undefined : "{}" });
  const text = await response.text();
  let body: { error?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // a stream or text
  }
  return { status: response.status, body };
}

Deno.test("developer API: every route refuses a missing, deleted or session credential, and each key scope where it must", async (t) => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const user = await addUser(app, admin, "dora", "default");
  const workspace = async (name: string) => {
    const made = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      headers: { Authorization: `Bearer ${admin.token}` },
      json: { name },
    });
    return made.body.workspace.slug;
  };
  const places: Places = {
    open: await workspace("Open"),
    other: await workspace("Other"),
    thread: "no-thread",
  };
  const [{ id: openId }] =
    (await app.json<{ workspaces: { id: number; slug: string }[] }>("/api/workspaces", {
      headers: { Authorization: `Bearer ${admin.token}` },
    })).body.workspaces.filter((row) => row.slug === places.open);

  const routes = developerApi(app.deps).routes;
  const keys = {
    read: (await makeApiKey(app, { scope: "read" }, admin.token)).key,
    readOpen: (await makeApiKey(
      app,
      { scope: "workspaces", workspaceIds: [openId], permissions: ["read"] },
      admin.token,
    )).key,
    chatOpen: (await makeApiKey(
      app,
      { scope: "workspaces", workspaceIds: [openId], permissions: ["chat"] },
      admin.token,
    )).key,
  };
  const deleted = await makeApiKey(app, {}, admin.token);
  await app.json(`/api/admin/delete-api-key/${deleted.id}`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${admin.token}` },
  });

  for (const route of routes) {
    const name = `${route.method.toUpperCase()} /api/v1${route.path}`;
    await t.step(
      `${name}: no key, a deleted key, and the UI's sessions get 403 "No valid api key found."`,
      async () => {
        for (
          const [kind, key] of [["no key", null], ["deleted", deleted.key], ["admin session", admin.token], [
            "user session",
            user.token,
          ]] as const
        ) {
          const answer = await call(app, route, pathOf(route, places.open, places), key);
          assert.equal(answer.status, 403, `${kind}: ${name}`);
          assert.deepEqual(answer.body, { error: "No valid api key found." }, kind);
        }
      },
    );
    await t.step(`${name}: keys of each scope are refused, or let through, as its need says`, async () => {
      const need = route.need;
      const readAllowed = need.kind === "any" || (need.kind === "instance" && !need.write) ||
        (need.kind === "workspace" && need.permission === "read");
      const inOpen = (permission: string) =>
        need.kind === "any" ||
        (need.kind === "workspace" && need.from !== "body" && need.permission === permission);
      const expectations: [string, string, string, boolean, RegExp][] = [
        ["read-only", keys.read, places.open, readAllowed, /^This API key is read-only, so it cannot /],
        ["read in Open", keys.readOpen, places.open, inOpen("read"), /^This API key /],
        ["chat in Open", keys.chatOpen, places.open, inOpen("chat"), /^This API key /],
        [
          "read in Open, on Other",
          keys.readOpen,
          places.other,
          need.kind === "any",
          /^This API key (is limited to the workspaces "open"|may only read)/,
        ],
      ];
      for (const [kind, key, slug, allowed, refusal] of expectations) {
        if (need.kind === "workspace" && need.from === "body" && kind !== "read-only") continue;
        const answer = await call(app, route, pathOf(route, slug, places), key);
        if (allowed) {
          assert.ok(
            !/^This API key/.test(answer.body.error ?? ""),
            `${kind} should pass ${name}: ${answer.body.error}`,
          );
        } else {
          assert.equal(answer.status, 403, `${kind}: ${name}`);
          assert.match(answer.body.error ?? "", refusal, `${kind}: ${name}`);
        }
      }
    });
  }
});
