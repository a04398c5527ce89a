import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documents } from "../../db/schema.ts";
import type { ConnectorImport } from "../../shared/api/connectors.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { fakeHosts } from "../testing/connector_context.ts";
import { CLOUD_USER, startFakeConfluence } from "../testing/fake_confluence.ts";
import { articlePage, startFakeWebsite } from "../testing/fake_website.ts";
import { startFakeYouTube } from "../testing/fake_youtube.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { connectorImports } from "./import.ts";

// The three sources' routes through the whole app, each against its fake on loopback: the app's guarded fetch
// resolves the fakes' public names to a public test address and the test's fetch takes the request to the fake.

interface Answer<T = Record<string, unknown>> {
  success: boolean;
  reason: string | null;
  data: T;
}

const CLOUD_HOST = "harbour.atlassian.net";
const SITE_HOST = "docs.example.test";

/** Every named host to its fake (`http://127.0.0.1:<port>`); nothing else resolves. */
const network = fakeHosts;

async function call<T = Record<string, unknown>>(
  app: TestApp,
  path: string,
  json: unknown,
  init: RequestInit = {},
) {
  const answer = await app.json<Answer<T>>(path, { ...init, json });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

async function folderTitles(app: TestApp, folder: string) {
  const rows = await app.deps.db.select({ title: documents.title }).from(documents).where(
    eq(documents.folder, folder),
  );
  return rows.map((row) => row.title).sort();
}

async function allDocuments(app: TestApp) {
  return (await app.deps.db.select({ id: documents.id }).from(documents)).length;
}

Deno.test("YouTube transcript: the video's captions become a document; a video without captions fails with nothing stored", async () => {
  await using youtube = startFakeYouTube({
    tide0000001: {
      title: "How tides work",
      author: "Harbour Channel",
      tracks: [{
        languageCode: "en",
        name: "English",
        lines: [[0, 2, "The tides come"], [2, 2, "from the moon."]],
      }],
    },
    nocaptions1: { title: "Silent film", author: "Quiet Channel" },
  });
  await using app = await createTestApp();
  app.deps.linkFetch = network({ "www.youtube.com": youtube.baseURL });

  const done = await call<{ title: string; author: string; destination: string; import: ConnectorImport }>(
    app,
    "/api/ext/youtube/transcript",
    { url: "https://youtu.be/tide0000001" },
  );
  assert.equal(done.success, true, done.reason ?? "");
  assert.deepEqual(
    { title: done.data.title, author: done.data.author, destination: done.data.destination },
    { title: "How tides work", author: "Harbour Channel", destination: "youtube-transcripts" },
  );
  assert.equal(done.data.import.status, "done");
  assert.deepEqual(await folderTitles(app, "youtube-transcripts"), ["How tides work"]);

  const before = await allDocuments(app);
  const failed = await call(app, "/api/ext/youtube/transcript", {
    url: "https://www.youtube.com/watch?v=nocaptions1",
  });
  assert.deepEqual(failed, {
    success: false,
    reason: "No transcript found for that YouTube video.",
    data: {},
  });
  const bad = await call(app, "/api/ext/youtube/transcript", { url: "https://vimeo.com/1" });
  assert.deepEqual(bad, {
    success: false,
    reason: "Invalid URL. Should be youtu.be or youtube.com/watch.",
    data: {},
  });
  assert.equal(await allDocuments(app), before);
});

Deno.test("website crawl: the pages within the depth become documents, answered as the reference's list", async () => {
  await using site = startFakeWebsite({
    robots: null,
    pages: {
      "/": articlePage("Harbour guide home", ["/guide"]),
      "/guide": articlePage("Reading a tide table", ["/guide/deep"]),
      "/guide/deep": articlePage("Spring and neap tides", []),
    },
  });
  await using app = await createTestApp();
  app.deps.linkFetch = network({ [SITE_HOST]: site.baseURL });

  const done = await call<{ title: string; chunkSource?: string }[]>(app, "/api/ext/website-depth", {
    url: `https://${SITE_HOST}/`,
    depth: 1,
    maxLinks: 5,
  });
  assert.equal(done.success, true, done.reason ?? "");
  assert.ok(Array.isArray(done.data));
  assert.equal(done.data.length, 2);
  assert.ok(done.data.every((page) => !("pageContent" in page)));
  assert.deepEqual(await folderTitles(app, "docs-example-test"), done.data.map((page) => page.title).sort());
  assert.ok(!site.seen.includes("/guide/deep"), "the crawl stays within its depth");
});

Deno.test("website crawl in the background: the answer comes at once, the import ends; a start page that fails stores nothing", async () => {
  await using site = startFakeWebsite({
    robots: null,
    pages: { "/": articlePage("Harbour guide home", []) },
  });
  await using app = await createTestApp();
  app.deps.linkFetch = network({ [SITE_HOST]: site.baseURL });

  const started = await call<{ import: ConnectorImport }>(app, "/api/ext/website-depth", {
    url: `https://${SITE_HOST}/`,
    background: true,
  });
  assert.equal(started.success, true, started.reason ?? "");
  assert.equal(started.data.import.source, "website-depth");
  assert.equal(started.data.import.folder, "docs-example-test");
  const ended = await connectorImports(app.deps).ended(started.data.import.id);
  assert.equal(ended?.status, "done", ended?.reason ?? "");
  assert.deepEqual(await folderTitles(app, "docs-example-test"), ["Harbour guide home"]);

  const before = await allDocuments(app);
  const failed = await call(app, "/api/ext/website-depth", {
    url: `https://${SITE_HOST}/missing`,
    maxLinks: 3,
  });
  assert.equal(failed.success, false);
  assert.match(failed.reason ?? "", /\.$/);
  assert.match(failed.reason ?? "", /missing/);
  assert.deepEqual(failed.data, {});
  const badDepth = await call(app, "/api/ext/website-depth", { url: `https://${SITE_HOST}/`, depth: 9 });
  assert.deepEqual(badDepth, {
    success: false,
    reason: "The crawl depth must be a whole number from 1 to 5.",
    data: {},
  });
  assert.equal(await allDocuments(app), before);
});

Deno.test("Confluence: a cloud space's pages become documents; refused credentials fail with nothing stored", async () => {
  await using confluence = startFakeConfluence("cloud", [{
    key: "DOCS",
    name: "Harbour Docs",
    pages: [
      { id: "101", title: "Home", storage: "<p>Welcome to the harbour.</p>" },
      { id: "102", title: "Tides", parents: ["101"], storage: "<p>Twice a day.</p>" },
    ],
  }]);
  await using app = await createTestApp();
  app.deps.linkFetch = network({ [CLOUD_HOST]: confluence.baseURL });
  const base = { baseUrl: `https://${CLOUD_HOST}`, spaceKey: "DOCS", cloud: true };

  const done = await call<{ spaceKey: string; destination: string }>(app, "/api/ext/confluence", {
    ...base,
    ...CLOUD_USER,
  });
  assert.equal(done.success, true, done.reason ?? "");
  assert.equal(done.data.spaceKey, "DOCS");
  assert.equal(done.data.destination, "confluence-harbour-atlassian-net-docs");
  assert.deepEqual(await folderTitles(app, "confluence-harbour-atlassian-net-docs"), [
    "Harbour Docs › Home",
    "Harbour Docs › Home › Tides",
  ]);

  const before = await allDocuments(app);
  const refused = await call(app, "/api/ext/confluence", {
    ...base,
    username: CLOUD_USER.username,
    accessToken: "wrong",
  });
  assert.deepEqual(refused, {
    success: false,
    reason: "Confluence refused the username and access token. Check them and try again.",
    data: {},
  });
  const missing = await call(app, "/api/ext/confluence", { ...base, username: CLOUD_USER.username });
  assert.deepEqual(missing, {
    success: false,
    reason:
      "You need either a personal access token (PAT), or a username and access token to use the Confluence connector.",
    data: {},
  });
  assert.equal(await allDocuments(app), before);
});

Deno.test("the source routes refuse a default user", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const user = await addUser(app, admin, "dale", "default");
  for (
    const [path, json] of [
      ["/api/ext/youtube/transcript", { url: "https://youtu.be/tide0000001" }],
      ["/api/ext/website-depth", { url: `https://${SITE_HOST}/` }],
      ["/api/ext/confluence", { baseUrl: `https://${CLOUD_HOST}`, spaceKey: "DOCS", ...CLOUD_USER }],
    ] as const
  ) {
    const answer = await app.json(path, { ...bearer(user.token), json });
    assert.equal(answer.status, 403, `${path}: ${JSON.stringify(answer.body)}`);
    assert.deepEqual(answer.body, { success: false, error: "You do not have permission to do that." });
  }
  assert.equal(await allDocuments(app), 0);
});
