import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documents } from "../../db/schema.ts";
import type { ConnectorImport } from "../../shared/api/connectors.ts";
import { createLogger } from "../log.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { type FakeRepo, startFakeGithub } from "../testing/fake_github.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { connectorImports } from "./import.ts";

const TOKEN = "ghp_secret_token_1234567890";
const PRIVATE_HOSTS = { LECTERN_CONNECTOR_PRIVATE_HOSTS: "127.0.0.1" };

interface Answer<T = Record<string, unknown>> {
  success: boolean;
  reason: string | null;
  data: T;
}

function repos(): FakeRepo[] {
  return [
    {
      owner: "octo",
      name: "tides",
      defaultBranch: "main",
      branches: {
        "feature/x": { "README.md": "# Feature\n" },
        main: {
          "README.md": "# Tides\n\nThe tide tables of the harbour.\n",
          "src/main.ts": "export const highTide = '06:12';\n",
          "src/util.ts": "export function add(a: number, b: number) { return a + b; }\n",
          "docs/guide.md": "The guide to the harbour.\n",
          "assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
          "data/blob.txt": new Uint8Array([0x41, 0, 0x42, 0, 0x43]),
          "big.txt": "x".repeat(1024 * 1024 + 10),
        },
        release: { "README.md": "# Release\n" },
      },
      issues: [
        {
          number: 1,
          title: "Tide table is wrong",
          body: "The 06:12 tide is late.",
          comments: ["Confirmed.", "Fixed?", "Yes."],
        },
        { number: 2, title: "Add moon phases", body: "Please." },
        { number: 3, title: "A pull request", body: "Not an issue.", pullRequest: true },
      ],
    },
    {
      owner: "octo",
      name: "secret",
      private: true,
      branches: { main: { "plan.md": "The secret plan.\n" } },
    },
  ];
}

async function setup(env: Record<string, string> = PRIVATE_HOSTS, lines: string[] = []) {
  const github = startFakeGithub({ repos: repos(), token: TOKEN });
  const app = await createTestApp({ env, log: createLogger("debug", (line) => lines.push(line)) });
  return {
    github,
    app,
    async [Symbol.asyncDispose]() {
      await app.close();
      await github.close();
    },
  };
}

async function call<T = Record<string, unknown>>(
  app: TestApp,
  path: string,
  json: unknown,
  init: RequestInit = {},
) {
  return await app.json<Answer<T>>(path, { ...init, json });
}

async function folderDocuments(app: TestApp, folder: string) {
  const rows = await app.deps.db.select().from(documents).where(eq(documents.folder, folder));
  return new Map(rows.map((row) => [row.title, row]));
}

Deno.test("GitHub branches: every page of the list, main first", async () => {
  await using env = await setup();
  const answer = await call<{ branches: string[] }>(env.app, "/api/ext/github/branches", {
    repo: `${env.github.url}/octo/tides`,
  });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, {
    success: true,
    reason: null,
    data: { branches: ["main", "feature/x", "release"] },
  });
  // Three branches at two per page: the Link header's next page was followed.
  assert.ok(env.github.calls.some((call) => call.path.includes("/branches?per_page=100&page=2")));
});

Deno.test("GitHub import: text and code files become documents, binary, huge and ignored files are skipped", async () => {
  await using env = await setup();
  const answer = await call<
    { files: number; destination: string; author: string; repo: string; branch: string }
  >(
    env.app,
    "/api/ext/github/repo",
    { repo: `${env.github.url}/octo/tides.git`, branch: "main", ignorePaths: ["docs/"], accessToken: "" },
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.success, true, answer.body.reason ?? "");
  const data = answer.body.data as typeof answer.body.data & { import: ConnectorImport };
  assert.deepEqual(
    {
      author: data.author,
      repo: data.repo,
      branch: data.branch,
      files: data.files,
      destination: data.destination,
    },
    { author: "octo", repo: "tides", branch: "main", files: 3, destination: "octo-tides-main" },
  );
  assert.equal(data.import.found, 7);
  assert.equal(data.import.skipped, 4); // docs/guide.md ignored, logo.png and blob.txt binary, big.txt too large
  assert.equal(data.import.done, 3);
  const stored = await folderDocuments(env.app, "octo-tides-main");
  assert.deepEqual([...stored.keys()].sort(), ["README.md", "src/main.ts", "src/util.ts"]);
  const main = await env.app.deps.documents.read(stored.get("src/main.ts")!.location);
  assert.equal(main.pageContent, "export const highTide = '06:12';\n");
  assert.equal(main.url, `${env.github.url}/octo/tides/blob/main/src/main.ts`);
  assert.equal(main.docAuthor, "octo");
});

Deno.test("GitHub import: issues with their comments (all pages), pull requests left out", async () => {
  await using env = await setup();
  const answer = await call(env.app, "/api/ext/github/repo", {
    repo: `${env.github.url}/octo/tides`,
    branch: "release",
    fetchIssues: true,
  });
  assert.equal(answer.body.success, true, answer.body.reason ?? "");
  const stored = await folderDocuments(env.app, "octo-tides-release");
  assert.deepEqual([...stored.keys()].sort(), [
    "Issue #1: Tide table is wrong",
    "Issue #2: Add moon phases",
    "README.md",
  ]);
  const issue = await env.app.deps.documents.read(stored.get("Issue #1: Tide table is wrong")!.location);
  for (const text of ["The 06:12 tide is late.", "Confirmed.", "Fixed?", "Yes."]) {
    assert.match(issue.pageContent, new RegExp(text.replace("?", "\\?")));
  }
});

Deno.test("GitHub import: a second import updates changed documents only and removes those gone", async () => {
  await using env = await setup();
  const repo = `${env.github.url}/octo/tides`;
  const first = await call(env.app, "/api/ext/github/repo", { repo, branch: "release" });
  assert.equal(first.body.success, true);
  const firstRows = await folderDocuments(env.app, "octo-tides-release");
  const readmeLocation = firstRows.get("README.md")!.location;

  // The fake's repositories are rebuilt per server: change this one's files in place.
  await env.github.close();
  const changed = repos();
  changed[0].branches.release = { "README.md": "# Release 2\n", "CHANGELOG.md": "v2\n" };
  const github = startFakeGithub({ repos: changed, token: TOKEN });
  try {
    // Same host and port are not guaranteed: the repository URL differs, the folder (owner-repo-branch) is the same.
    const second = await call<{ import: ConnectorImport }>(env.app, "/api/ext/github/repo", {
      repo: `${github.url}/octo/tides`,
      branch: "release",
    });
    assert.equal(second.body.success, true, second.body.reason ?? "");
    const progress = second.body.data.import;
    assert.deepEqual(
      {
        added: progress.added,
        updated: progress.updated,
        unchanged: progress.unchanged,
        removed: progress.removed,
      },
      { added: 1, updated: 1, unchanged: 0, removed: 0 },
    );
    const rows = await folderDocuments(env.app, "octo-tides-release");
    assert.deepEqual([...rows.keys()].sort(), ["CHANGELOG.md", "README.md"]);
    assert.equal(rows.get("README.md")!.location, readmeLocation, "a changed document keeps its place");
    assert.equal((await env.app.deps.documents.read(readmeLocation)).pageContent, "# Release 2\n");

    const third = await call<{ import: ConnectorImport }>(env.app, "/api/ext/github/repo", {
      repo: `${github.url}/octo/tides`,
      branch: "release",
      ignorePaths: ["CHANGELOG.md"],
    });
    const again = third.body.data.import;
    assert.deepEqual(
      { added: again.added, updated: again.updated, unchanged: again.unchanged, removed: again.removed },
      { added: 0, updated: 0, unchanged: 1, removed: 1 },
    );
    assert.deepEqual([...(await folderDocuments(env.app, "octo-tides-release")).keys()], ["README.md"]);
  } finally {
    await github.close();
  }
});

Deno.test("GitHub import: a failure half-way removes what it wrote and answers the sentence", async () => {
  await using env = await setup();
  // Repository, branch, tree and two blobs answer; the third blob fails.
  env.github.failAfterCalls = 5;
  const answer = await call(env.app, "/api/ext/github/repo", {
    repo: `${env.github.url}/octo/tides`,
    branch: "main",
  });
  assert.deepEqual(answer.body, { success: false, reason: "GitHub answered 502 Bad Gateway.", data: {} });
  assert.equal((await folderDocuments(env.app, "octo-tides-main")).size, 0);
});

Deno.test("GitHub: private repository, tokens, unknown branch, rate limit, unreachable host, refused address", async () => {
  const lines: string[] = [];
  await using env = await setup(PRIVATE_HOSTS, lines);
  const secret = `${env.github.url}/octo/secret`;
  const reason = async (path: string, body: Record<string, unknown>) =>
    (await call(env.app, path, body)).body;

  assert.deepEqual(await reason("/api/ext/github/branches", { repo: secret }), {
    success: false,
    reason: "Cannot find the repository octo/secret. A private repository needs an access token.",
    data: { branches: [] },
  });
  assert.deepEqual(await reason("/api/ext/github/repo", { repo: secret, accessToken: "ghp_wrong" }), {
    success: false,
    reason:
      "GitHub refused the access token (401 Bad credentials). Check the token, or leave it empty for a public repository.",
    data: {},
  });
  assert.deepEqual(
    await reason("/api/ext/github/repo", { repo: secret, branch: "nope", accessToken: TOKEN }),
    {
      success: false,
      reason: `The branch "nope" does not exist in octo/secret.`,
      data: {},
    },
  );
  const imported = await reason("/api/ext/github/repo", { repo: secret, accessToken: TOKEN });
  assert.equal(imported.success, true, String(imported.reason));
  // The token went to GitHub only, and is nowhere in the library or the log.
  assert.ok(env.github.calls.some((call) => call.credential === `Bearer ${TOKEN}`));
  for (const row of (await folderDocuments(env.app, "octo-secret-main")).values()) {
    assert.ok(!row.metadata.includes(TOKEN));
    assert.ok(!JSON.stringify(await env.app.deps.documents.read(row.location)).includes(TOKEN));
  }
  assert.ok(lines.length > 0 && !lines.some((line) => line.includes(TOKEN)));

  env.github.rateLimited = true;
  assert.deepEqual(await reason("/api/ext/github/branches", { repo: `${env.github.url}/octo/tides` }), {
    success: false,
    reason:
      "GitHub's rate limit was reached; it resets at 14:05 UTC. Add an access token, or try again then.",
    data: { branches: [] },
  });

  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const unreachable = await reason("/api/ext/github/repo", { repo: `http://127.0.0.1:${port}/octo/tides` });
  assert.equal(unreachable.success, false);
  assert.match(String(unreachable.reason), new RegExp(`^Cannot reach 127\\.0\\.0\\.1:${port}: .+\\.$`));

  assert.deepEqual(await reason("/api/ext/github/repo", { repo: "not a url" }), {
    success: false,
    reason: "The repository URL must look like https://github.com/owner/repo.",
    data: {},
  });
});

Deno.test("GitHub: without the operator's private hosts the URL guard refuses a loopback host", async () => {
  await using env = await setup({});
  const answer = await call(env.app, "/api/ext/github/branches", { repo: `${env.github.url}/octo/tides` });
  assert.equal(answer.body.success, false);
  assert.match(String(answer.body.reason), /127\.0\.0\.1 points to a loopback address/);
  assert.equal(env.github.calls.length, 0);
});

Deno.test("GitHub import in the background: progress readable by a call, listed until it ended", async () => {
  await using env = await setup();
  const started = await call<{ import: ConnectorImport; destination: string }>(
    env.app,
    "/api/ext/github/repo",
    {
      repo: `${env.github.url}/octo/tides`,
      branch: "main",
      background: true,
    },
  );
  assert.equal(started.body.success, true);
  assert.equal(started.body.data.destination, "octo-tides-main");
  const id = started.body.data.import.id;
  await connectorImports(env.app.deps).ended(id);
  const progress = await env.app.json<Answer<{ import: ConnectorImport }>>(`/api/ext/imports/${id}`);
  assert.equal(progress.body.data.import.status, "done");
  assert.equal(progress.body.data.import.done, 4);
  assert.equal(progress.body.data.import.label, "octo/tides:main");
  const list = await env.app.json<Answer<{ imports: ConnectorImport[] }>>("/api/ext/imports");
  assert.deepEqual(list.body.data.imports.map((entry) => entry.id), [id]);
  const missing = await env.app.json<Answer>("/api/ext/imports/nope");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { success: false, reason: "Cannot find that import.", data: {} });
});

Deno.test("GitHub connector calls: admins and managers only", async () => {
  await using env = await setup();
  const admin = await multiUserInstance(env.app);
  const manager = await addUser(env.app, admin, "mara", "manager");
  const member = await addUser(env.app, admin, "dale", "default");
  const body = { repo: `${env.github.url}/octo/tides` };
  const refused = await call(env.app, "/api/ext/github/branches", body, bearer(member.token));
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.body, { success: false, error: "You do not have permission to do that." });
  assert.equal((await call(env.app, "/api/ext/github/repo", body, bearer(member.token))).status, 403);
  assert.equal((await env.app.json("/api/ext/imports", bearer(member.token))).status, 403);
  const allowed = await call(env.app, "/api/ext/github/branches", body, bearer(manager.token));
  assert.equal(allowed.body.success, true);
});
