import assert from "node:assert/strict";
import { eq, like } from "drizzle-orm";
import { documents, documentSyncQueues, systemSettings } from "../../db/schema.ts";
import { fakeHosts } from "../testing/connector_context.ts";
import { CLOUD_USER, type FakeConfluenceSpace, startFakeConfluence } from "../testing/fake_confluence.ts";
import { type FakeRepo, startFakeGithub } from "../testing/fake_github.ts";
import { articlePage, startFakeWebsite } from "../testing/fake_website.ts";
import { type FakeVideo, startFakeYouTube } from "../testing/fake_youtube.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

// Live sync of the documents of YouTube, the website crawl, Confluence and a private repository: each is
// fetched again from its source (its fake on loopback, through the URL guard) and embedded again when it changed.

/** Every named host to its fake (`http://127.0.0.1:<port>`); nothing else resolves. */
const network = fakeHosts;

async function imported(app: TestApp, path: string, json: Record<string, unknown>) {
  const answer = await app.json<{ success: boolean; reason: string | null }>(path, { json });
  assert.equal(answer.body.success, true, answer.body.reason ?? "");
}

/** Embeds the folder's only document in a new workspace and watches it; returns its location and queue. */
async function watchOnly(app: TestApp, folder: string) {
  const rows = await app.deps.db.select().from(documents).where(eq(documents.folder, folder));
  assert.equal(rows.length, 1, rows.map((row) => row.title).join(", "));
  const location = rows[0].location;
  const listed = await app.json<{ documents: { canWatch: boolean }[] }>(
    `/api/system/local-files?folder=${folder}`,
  );
  assert.equal(listed.body.documents[0].canWatch, true);
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: `Watch ${folder}` },
  });
  const slug = created.body.workspace.slug;
  const embedded = await app.json(`/api/workspace/${slug}/update-embeddings`, { json: { adds: [location] } });
  assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
  const watched = await app.json(`/api/workspace/${slug}/update-watch-status`, {
    json: { docPath: location, watchStatus: true },
  });
  assert.equal(watched.status, 200, JSON.stringify(watched.body));
  const [queue] = await app.deps.db.select().from(documentSyncQueues);
  return { location, queueId: queue.id };
}

async function sync(app: TestApp, queueId: number) {
  return (await app.deps.liveSync.syncQueue(queueId)).execution;
}

Deno.test("Live sync fetches a YouTube video's captions again, in the language the import chose", async () => {
  const video: FakeVideo = {
    title: "How tides work",
    author: "Harbour Channel",
    tracks: [
      { languageCode: "en", name: "English", lines: [[0, 2, "The tides come from the moon."]] },
      { languageCode: "de", name: "German", lines: [[0, 2, "Die Gezeiten kommen vom Mond."]] },
    ],
  };
  await using youtube = startFakeYouTube({ tide0000001: video });
  await using app = await createTestApp();
  app.deps.linkFetch = network({ "www.youtube.com": youtube.baseURL });
  await imported(app, "/api/ext/youtube/transcript", {
    url: "https://youtu.be/tide0000001",
    language: "de",
  });
  const { location, queueId } = await watchOnly(app, "youtube-transcripts");

  assert.equal((await sync(app, queueId)).status, "unchanged");
  video.tracks![1].lines = [[0, 2, "Die Gezeiten kommen vom Mond und von der Sonne."]];
  const changed = await sync(app, queueId);
  assert.equal(changed.status, "success", String(changed.result));
  assert.equal(
    (await app.deps.documents.read(location)).pageContent,
    "Die Gezeiten kommen vom Mond und von der Sonne.",
  );
});

Deno.test("Live sync fetches a crawled page again; a page gone fails with a sentence", async () => {
  await using site = startFakeWebsite({
    robots: null,
    pages: { "/": articlePage("Harbour guide home", []) },
  });
  await using app = await createTestApp();
  app.deps.linkFetch = network({ "docs.example.test": site.baseURL });
  await imported(app, "/api/ext/website-depth", { url: "https://docs.example.test/", depth: 1, maxLinks: 1 });
  const { location, queueId } = await watchOnly(app, "docs-example-test");

  assert.equal((await sync(app, queueId)).status, "unchanged");
  site.setPage("/", articlePage("Harbour guide home, winter timetable", []));
  const changed = await sync(app, queueId);
  assert.equal(changed.status, "success", String(changed.result));
  assert.match((await app.deps.documents.read(location)).pageContent, /winter timetable/);
  assert.ok(site.seen.filter((path) => path === "/robots.txt").length >= 3, "robots.txt is read each time");

  site.setPage("/", "");
  const empty = await sync(app, queueId);
  assert.equal(empty.status, "failed");
  assert.match(String(empty.result), /\.$/);
});

Deno.test("Live sync fetches a Confluence page again by its id with the import's credentials, kept encrypted", async () => {
  const spaces: FakeConfluenceSpace[] = [{
    key: "DOCS",
    name: "Harbour Docs",
    pages: [{ id: "101", title: "Home", storage: "<p>Welcome to the harbour.</p>", version: 1 }],
  }];
  await using confluence = startFakeConfluence("cloud", spaces);
  await using app = await createTestApp();
  app.deps.linkFetch = network({ "harbour.atlassian.net": confluence.baseURL });
  await imported(app, "/api/ext/confluence", {
    baseUrl: "https://harbour.atlassian.net",
    spaceKey: "DOCS",
    ...CLOUD_USER,
  });
  const folder = "confluence-harbour-atlassian-net-docs";
  // The credentials are kept encrypted with the instance key, and no answer carries them.
  const kept = await app.deps.db.select().from(systemSettings).where(
    like(systemSettings.label, "connector_credentials:%"),
  );
  assert.deepEqual(kept.map((row) => row.label), [`connector_credentials:confluence:${folder}`]);
  assert.match(kept[0].value ?? "", /^enc:v1:/);
  assert.ok(!kept[0].value!.includes(CLOUD_USER.accessToken));
  const { location, queueId } = await watchOnly(app, folder);
  for (
    const path of [`/api/system/local-files?folder=${folder}`, "/api/ext/imports", "/api/setup-complete"]
  ) {
    const answer = await app.request(path);
    assert.equal(answer.status, 200, path);
    assert.ok(!(await answer.text()).includes(CLOUD_USER.accessToken), path);
  }

  assert.equal((await sync(app, queueId)).status, "unchanged");
  spaces[0].pages[0].storage = "<p>Welcome to the harbour. The office is closed on Sundays.</p>";
  spaces[0].pages[0].version = 2;
  const before = confluence.authorizations.length;
  const changed = await sync(app, queueId);
  assert.equal(changed.status, "success", String(changed.result));
  assert.match((await app.deps.documents.read(location)).pageContent, /closed on Sundays/);
  assert.ok(confluence.authorizations.slice(before).every((header) => header.startsWith("Basic ")));
  assert.ok(confluence.authorizations.length > before);

  spaces[0].pages = [];
  const gone = await sync(app, queueId);
  assert.equal(gone.status, "failed");
  assert.equal(gone.result, "The Confluence page 101 no longer exists, or the account cannot see it.");
});

Deno.test("Live sync fetches a private repository's file with the import's access token", async () => {
  const TOKEN = "ghp_private_watch_token_123";
  const repo: FakeRepo = {
    owner: "port",
    name: "secret",
    private: true,
    branches: { main: { "plan.md": "The plan: dredge in spring." } },
  };
  const github = startFakeGithub({ repos: [repo], token: TOKEN });
  await using app = await createTestApp({ env: { LECTERN_CONNECTOR_PRIVATE_HOSTS: "127.0.0.1" } });
  try {
    await imported(app, "/api/ext/github/repo", {
      repo: `${github.url}/port/secret`,
      branch: "main",
      accessToken: TOKEN,
    });
    const { location, queueId } = await watchOnly(app, "port-secret-main");
    repo.branches.main["plan.md"] = "The plan: dredge in autumn.";
    const changed = await sync(app, queueId);
    assert.equal(changed.status, "success", String(changed.result));
    assert.equal((await app.deps.documents.read(location)).pageContent, "The plan: dredge in autumn.");
    const fetched = github.calls.filter((call) => call.path.includes("/contents/plan.md"));
    assert.ok(fetched.length > 0 && fetched.every((call) => call.credential === `Bearer ${TOKEN}`));

    // A second import without a token (the repository made public) forgets the kept one.
    repo.private = false;
    await imported(app, "/api/ext/github/repo", { repo: `${github.url}/port/secret`, branch: "main" });
    const kept = await app.deps.db.select().from(systemSettings).where(
      like(systemSettings.label, "connector_credentials:%"),
    );
    assert.deepEqual(kept, []);
  } finally {
    await github.close();
  }
});
