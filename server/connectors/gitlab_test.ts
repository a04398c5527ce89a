import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documents } from "../../db/schema.ts";
import type { ConnectorImport } from "../../shared/api/connectors.ts";
import { type FakeProject, startFakeGitlab } from "../testing/fake_gitlab.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

const TOKEN = "glpat-secret-0987654321";

interface Answer<T = Record<string, unknown>> {
  success: boolean;
  reason: string | null;
  data: T;
}

function projects(): FakeProject[] {
  return [
    {
      path: "harbour/tools/tides",
      defaultBranch: "main",
      branches: {
        main: {
          "README.md": "# Tides on GitLab\n",
          "src/a.ts": "export const a = 1;\n",
          "src/b.ts": "export const b = 2;\n",
          "src/c.ts": "export const c = 3;\n",
          "vendor/lib.js": "var x;\n",
          "image.jpg": new Uint8Array([0xff, 0xd8, 0xff, 0]),
          "big.log": "y".repeat(1024 * 1024 + 1),
        },
        develop: { "README.md": "# Develop\n" },
      },
      issues: [{
        iid: 4,
        title: "Buoy missing",
        description: "The red buoy is gone.",
        notes: ["Found it.", "Back in place."],
      }],
      wiki: [{ slug: "home", title: "Home", content: "Welcome to the harbour wiki." }],
    },
    { path: "harbour/private", private: true, branches: { main: { "notes.md": "Private notes.\n" } } },
  ];
}

async function setup() {
  const gitlab = startFakeGitlab({ projects: projects(), token: TOKEN });
  const app = await createTestApp({ env: { LECTERN_CONNECTOR_PRIVATE_HOSTS: "127.0.0.1" } });
  return {
    gitlab,
    app,
    async [Symbol.asyncDispose]() {
      await app.close();
      await gitlab.close();
    },
  };
}

async function call<T = Record<string, unknown>>(app: TestApp, path: string, json: unknown) {
  return (await app.json<Answer<T>>(path, { json })).body;
}

async function titles(app: TestApp, folder: string) {
  const rows = await app.deps.db.select().from(documents).where(eq(documents.folder, folder));
  return new Map(rows.map((row) => [row.title, row.location]));
}

Deno.test("GitLab (self-hosted, subgroup): branches over pages, main first", async () => {
  await using env = await setup();
  const answer = await call<{ branches: string[] }>(env.app, "/api/ext/gitlab/branches", {
    repo: `${env.gitlab.url}/harbour/tools/tides`,
  });
  assert.deepEqual(answer, { success: true, reason: null, data: { branches: ["main", "develop"] } });
});

Deno.test("GitLab import: the paginated tree's files, issues with notes and wiki pages; skips counted", async () => {
  await using env = await setup();
  const answer = await call<{ files: number; destination: string; author: string; import: ConnectorImport }>(
    env.app,
    "/api/ext/gitlab/repo",
    {
      repo: `${env.gitlab.url}/harbour/tools/tides.git`,
      branch: "main",
      ignorePaths: ["vendor/*"],
      fetchIssues: true,
      fetchWikis: true,
    },
  );
  assert.equal(answer.success, true, answer.reason ?? "");
  assert.equal(answer.data.destination, "harbour-tools-tides-main");
  assert.equal(answer.data.author, "harbour/tools");
  assert.equal(answer.data.files, 6);
  assert.equal(answer.data.import.skipped, 3); // vendor/lib.js ignored, image.jpg binary, big.log too large
  const stored = await titles(env.app, "harbour-tools-tides-main");
  assert.deepEqual([...stored.keys()].sort(), [
    "Issue #4: Buoy missing",
    "README.md",
    "Wiki: Home",
    "src/a.ts",
    "src/b.ts",
    "src/c.ts",
  ]);
  const issue = await env.app.deps.documents.read(stored.get("Issue #4: Buoy missing")!);
  assert.match(issue.pageContent, /The red buoy is gone\.[\s\S]*Found it\.[\s\S]*Back in place\./);
  assert.doesNotMatch(issue.pageContent, /changed the description/, "system notes are left out");
  const file = await env.app.deps.documents.read(stored.get("src/b.ts")!);
  assert.equal(file.pageContent, "export const b = 2;\n");
  assert.equal(file.url, `${env.gitlab.url}/harbour/tools/tides/-/blob/main/src/b.ts`);
  // The tree came in pages of two, followed by the pagination headers.
  assert.ok(
    env.gitlab.calls.some((entry) =>
      entry.path.includes("/repository/tree?") && entry.path.includes("page=4")
    ),
  );
});

Deno.test("GitLab: private project, wrong token, unknown branch, rate limit", async () => {
  await using env = await setup();
  const secret = `${env.gitlab.url}/harbour/private`;
  assert.deepEqual(await call(env.app, "/api/ext/gitlab/repo", { repo: secret }), {
    success: false,
    reason: "Cannot find the project harbour/private. A private project needs an access token.",
    data: {},
  });
  assert.deepEqual(
    await call(env.app, "/api/ext/gitlab/branches", { repo: secret, accessToken: "glpat-wrong" }),
    {
      success: false,
      reason:
        "GitLab refused the access token (401 Unauthorized). Check the token, or leave it empty for a public project.",
      data: { branches: [] },
    },
  );
  assert.deepEqual(
    await call(env.app, "/api/ext/gitlab/repo", { repo: secret, accessToken: TOKEN, branch: "x" }),
    {
      success: false,
      reason: `The branch "x" does not exist in harbour/private.`,
      data: {},
    },
  );
  const imported = await call<{ files: number }>(env.app, "/api/ext/gitlab/repo", {
    repo: secret,
    accessToken: TOKEN,
  });
  assert.equal(imported.success, true);
  assert.equal(imported.data.files, 1);
  assert.ok(
    env.gitlab.calls.every((entry) =>
      entry.credential === null || entry.credential === TOKEN || entry.credential === "glpat-wrong"
    ),
  );
  env.gitlab.rateLimited = true;
  assert.deepEqual(await call(env.app, "/api/ext/gitlab/branches", { repo: secret, accessToken: TOKEN }), {
    success: false,
    reason: "GitLab's rate limit was reached; it resets at 14:05 UTC. Try again then.",
    data: { branches: [] },
  });
});

Deno.test("GitLab import: a failure half-way leaves nothing of it, and an earlier import whole", async () => {
  await using env = await setup();
  const repo = `${env.gitlab.url}/harbour/tools/tides`;
  const first = await call(env.app, "/api/ext/gitlab/repo", { repo, branch: "develop" });
  assert.equal(first.success, true);
  const before = await titles(env.app, "harbour-tools-tides-develop");
  env.gitlab.failAfterCalls = env.gitlab.calls.length + 3; // project, branch, tree; the blob fails
  const second = await call(env.app, "/api/ext/gitlab/repo", { repo, branch: "develop" });
  assert.deepEqual(second, { success: false, reason: "GitLab answered 502 Bad Gateway.", data: {} });
  assert.deepEqual(await titles(env.app, "harbour-tools-tides-develop"), before);
});
