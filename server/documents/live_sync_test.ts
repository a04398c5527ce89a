import assert from "node:assert/strict";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import {
  documents,
  documentSyncExecutions,
  documentSyncQueues,
  workspaceDocuments,
  workspaces,
} from "../../db/schema.ts";
import {
  KEPT_EXECUTIONS,
  LIVE_SYNC_LABEL,
  LiveSyncQueuesAnswer,
  LiveSyncStatus,
  MAX_FAILURES_IN_A_ROW,
  SyncNowAnswer,
} from "../../shared/api/live_sync.ts";
import { UploadAnswer } from "../../shared/api/documents.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { LiveSync } from "./live_sync.ts";
import { DEFAULT_STALE_AFTER_MS } from "./library.ts";

const OLD_FACT = "The harbour of Fredville opens its lock gates at seven in the morning.";
const NEW_FACT = "The harbour of Fredville now opens its lock gates at noon, after the dredging works.";

const page = (fact: string) =>
  `<!doctype html><html><head><title>Harbour notice</title></head><body><article><h1>Harbour notice</h1>
<p>${fact} Sailors should plan their departures around the lock, which stays open for two hours.</p>
<p>The harbour master posts changes to the schedule on this page and at the lock keeper's office.</p>
</article></body></html>`;

/** A web site on loopback standing for the internet: its page can change or go away; it counts requests. */
function startSite() {
  const state = { html: page(OLD_FACT), down: false, requests: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    state.requests++;
    if (new URL(request.url).pathname !== "/notice" || state.down) {
      return new Response("Not here", { status: 404, statusText: "Not Found" });
    }
    return new Response(state.html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  return { state, port: () => server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

type Site = ReturnType<typeof startSite>;

/** The public name the documents are fetched from resolves to a public address; the fetch goes to the site. */
function network(site: Site) {
  return {
    resolve: (hostname: string) => Promise.resolve(hostname === "news.example.test" ? ["93.184.215.20"] : []),
    fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`http://127.0.0.1:${site.port()}${url.pathname}${url.search}`, init);
    }) as typeof fetch,
  };
}

async function newWorkspace(app: TestApp, name: string, init: RequestInit = {}) {
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    ...init,
    json: { name },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.workspace;
}

/** A link document embedded in two workspaces and watched in the first, due now. */
async function watchedLink(app: TestApp, site: Site) {
  app.deps.linkFetch = network(site);
  const harbour = await newWorkspace(app, "Harbour");
  const sailing = await newWorkspace(app, "Sailing");
  const uploaded = UploadAnswer.parse(
    (await app.json(`/api/workspace/${harbour.slug}/upload-link`, {
      json: { link: "https://news.example.test/notice" },
    })).body,
  );
  const location = uploaded.documents![0].location;
  for (const workspace of [harbour, sailing]) {
    const embedded = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
      json: { adds: [location] },
    });
    assert.equal(embedded.body.message, null);
  }
  const watched = await app.json(`/api/workspace/${harbour.slug}/update-watch-status`, {
    json: { docPath: location, watchStatus: true },
  });
  assert.equal(watched.status, 200, JSON.stringify(watched.body));
  const [queue] = await app.deps.db.select().from(documentSyncQueues);
  await app.deps.db.update(documentSyncQueues).set({ nextSyncAt: new Date(Date.now() - 1000) })
    .where(eq(documentSyncQueues.id, queue.id));
  return { location, harbour, sailing, queueId: queue.id };
}

async function enable(app: TestApp, init: RequestInit = {}) {
  const answer = await app.json("/api/experimental/toggle-live-sync", {
    ...init,
    json: { updatedStatus: true },
  });
  assert.deepEqual([answer.status, answer.body], [200, { success: true, error: null }]);
}

/** Every chunk text of the workspace's vectors that the search can reach for `query`. */
async function searchTexts(app: TestApp, workspaceId: number, query: string): Promise<string[]> {
  const embedder = app.deps.providers.embedder();
  const hits = await app.deps.vectors.search(
    workspaceNamespace(workspaceId, embedder),
    await embedder.embedQuery(query),
    { topK: 100, text: query },
  );
  const live = new Set(
    (await app.deps.db.select().from(workspaceDocuments).where(
      eq(workspaceDocuments.workspaceId, workspaceId),
    ))
      .map((row) => row.docId),
  );
  assert.ok(hits.every((hit) => live.has(hit.docId)), "no vector of a document id no row names is left");
  return hits.map((hit) => hit.text);
}

Deno.test("POST /api/experimental/toggle-live-sync stores the switch; GET /api/experimental/live-sync reads it", async () => {
  await using app = await createTestApp();
  const status = async () => LiveSyncStatus.parse((await app.json("/api/experimental/live-sync")).body);
  assert.deepEqual(await status(), { enabled: false, intervalMs: 60_000 }, "off by default");

  const preference = async () =>
    (await app.json<{ settings: Record<string, unknown> }>(
      "/api/admin/system-preferences-for?labels=experimental_live_file_sync",
    )).body.settings.experimental_live_file_sync;
  assert.equal(await preference(), "disabled");

  await enable(app);
  assert.equal(app.deps.settings.label(LIVE_SYNC_LABEL), "enabled");
  assert.equal((await status()).enabled, true);
  assert.equal(await preference(), "enabled", "the reference's label reads the switch too");
  assert.equal(app.deps.liveSync.enabled, true);

  const off = await app.json("/api/experimental/toggle-live-sync", { json: { updatedStatus: false } });
  assert.deepEqual(off.body, { success: true, error: null });
  assert.equal(app.deps.settings.label(LIVE_SYNC_LABEL), "disabled");
  assert.equal((await status()).enabled, false);

  for (const bad of [{}, { updatedStatus: "yes" }, { updatedStatus: 1 }, { updatedStatus: null }]) {
    const answer = await app.json("/api/experimental/toggle-live-sync", { json: bad });
    assert.equal(answer.status, 400, JSON.stringify(bad));
    assert.deepEqual(answer.body, { success: false, error: "updatedStatus must be true or false." });
  }
  const list = await app.json("/api/experimental/toggle-live-sync", { json: "[true]" });
  assert.deepEqual([list.status, list.body], [400, {
    success: false,
    error: 'The body must be a JSON object such as {"updatedStatus": true}',
  }]);
  const broken = await app.json("/api/experimental/toggle-live-sync", { method: "POST", body: "{nope" });
  assert.equal(broken.status, 400);
  assert.match(String((broken.body as { error: string }).error), /not valid JSON/);
});

Deno.test("live sync calls are for admins and managers only", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "morgan", "manager");
  const member = await addUser(app, admin, "dana", "default");
  const calls: [string, RequestInit & { json?: unknown }][] = [
    ["/api/experimental/live-sync", {}],
    ["/api/experimental/toggle-live-sync", { json: { updatedStatus: true } }],
    ["/api/experimental/live-sync/queues", {}],
    ["/api/experimental/live-sync/queues/1/sync-now", { method: "POST" }],
    ["/api/experimental/live-sync/queues/1", { method: "DELETE" }],
  ];
  for (const [path, init] of calls) {
    const refused = await app.json(path, { ...init, ...bearer(member.token) });
    assert.equal(refused.status, 403, path);
    assert.deepEqual(refused.body, { success: false, error: "You do not have permission to do that." });
    assert.equal((await app.json(path, init)).status, 401, `${path} without a token`);
  }
  assert.equal(app.deps.settings.label(LIVE_SYNC_LABEL), undefined, "a refused toggle changes nothing");
  await enable(app, bearer(manager.token));
  assert.equal(app.deps.liveSync.enabled, true);
  const listed = await app.json("/api/experimental/live-sync/queues", bearer(admin.token));
  assert.deepEqual(listed.body, { queues: [] });
});

Deno.test("a watched link that changed is rewritten in place and embedded again in every workspace", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  const { location, harbour, sailing, queueId } = await watchedLink(app, site);
  const file = join(app.storageDir, "documents", location);
  const before = JSON.parse(await Deno.readTextFile(file));
  const rowsBefore = await app.deps.db.select().from(workspaceDocuments);
  assert.equal(rowsBefore.length, 2);
  assert.ok((await searchTexts(app, sailing.id, "lock gates")).some((text) => text.includes(OLD_FACT)));

  const listed = LiveSyncQueuesAnswer.parse((await app.json("/api/experimental/live-sync/queues")).body);
  assert.equal(listed.queues.length, 1);
  const [queue] = listed.queues;
  assert.equal(queue.id, queueId);
  assert.equal(queue.staleAfterMs, DEFAULT_STALE_AFTER_MS);
  assert.equal(queue.lastSyncedAt, null);
  assert.deepEqual(queue.executions, []);
  assert.equal(queue.workspaceDoc.docpath, location);
  assert.equal(queue.workspaceDoc.watched, true);
  assert.deepEqual(queue.workspaceDoc.workspace, { id: harbour.id, name: "Harbour", slug: harbour.slug });
  assert.equal(queue.workspaceDoc.metadata.title, "news.example.test_notice.html");
  assert.equal(queue.workspaceDoc.metadata.chunkSource, "link://https://news.example.test/notice");
  assert.equal(queue.workspaceDoc.metadata.sourceUrl, "https://news.example.test/notice");
  assert.equal(queue.workspaceDoc.metadata.pageContent, undefined, "never the text");

  await enable(app);
  site.state.html = page(NEW_FACT);
  const started = Date.now();
  const outcomes = await app.deps.liveSync.runDue();
  assert.equal(outcomes.length, 1);
  assert.equal(outcomes[0].execution.status, "success", outcomes[0].execution.result ?? "");
  assert.match(outcomes[0].execution.result ?? "", /embedded again in 2 workspaces/);

  // The document keeps its place, id and title; its text and counts are new.
  const after = JSON.parse(await Deno.readTextFile(file));
  assert.equal(after.id, before.id);
  assert.equal(after.title, before.title);
  assert.equal(after.chunkSource, before.chunkSource);
  assert.match(after.pageContent, /now opens its lock gates at noon/);
  assert.ok(!after.pageContent.includes(OLD_FACT));
  assert.equal(after.wordCount, after.pageContent.split(" ").length);
  assert.notEqual(after.published, undefined);
  const [indexed] = await app.deps.db.select().from(documents).where(eq(documents.location, location));
  assert.equal(indexed.wordCount, after.wordCount);
  assert.equal(indexed.tokenCountEstimate, after.token_count_estimate);
  const indexedMetadata = JSON.parse(indexed.metadata);
  assert.equal(indexedMetadata.sourceUrl, "https://news.example.test/notice", "the link is kept");
  assert.equal(indexedMetadata.published, after.published);

  // Both workspaces answer from the new text only, under new document ids.
  const rowsAfter = await app.deps.db.select().from(workspaceDocuments);
  assert.equal(rowsAfter.length, 2);
  for (const row of rowsAfter) {
    const old = rowsBefore.find((entry) => entry.id === row.id)!;
    assert.notEqual(row.docId, old.docId);
    assert.equal(JSON.parse(row.metadata!).published, after.published);
  }
  for (const workspace of [harbour, sailing]) {
    const texts = await searchTexts(app, workspace.id, "When does the harbour open its lock gates?");
    assert.ok(texts.some((text) => text.includes(NEW_FACT)), `${workspace.slug} finds the new text`);
    assert.ok(
      !texts.some((text) => text.includes("at seven in the morning")),
      `${workspace.slug}: old text gone`,
    );
  }

  // Added to another workspace afterwards, the document brings the new text: no cached vector of the old one.
  const tides = await newWorkspace(app, "Tides");
  await app.json(`/api/workspace/${tides.slug}/update-embeddings`, { json: { adds: [location] } });
  const tideTexts = await searchTexts(app, tides.id, "When does the harbour open its lock gates?");
  assert.ok(tideTexts.some((text) => text.includes(NEW_FACT)));
  assert.ok(!tideTexts.some((text) => text.includes("at seven in the morning")));

  // The run is recorded and the queue moves on by its stale period.
  const [queueRow] = await app.deps.db.select().from(documentSyncQueues);
  assert.ok(queueRow.lastSyncedAt!.getTime() >= started - 5);
  assert.equal(queueRow.nextSyncAt.getTime(), queueRow.lastSyncedAt!.getTime() + DEFAULT_STALE_AFTER_MS);
  const again = LiveSyncQueuesAnswer.parse((await app.json("/api/experimental/live-sync/queues")).body);
  assert.equal(again.queues[0].executions[0].status, "success");
  assert.equal(again.queues[0].workspaceDoc.metadata.wordCount, after.wordCount);
  assert.equal((await app.deps.liveSync.runDue()).length, 0, "nothing is due any more");
});

Deno.test("a watched link whose text did not change is recorded as unchanged and nothing is rewritten", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  const { location, queueId } = await watchedLink(app, site);
  const file = join(app.storageDir, "documents", location);
  const before = await Deno.readTextFile(file);
  const rowsBefore = await app.deps.db.select().from(workspaceDocuments);
  await enable(app);
  const [outcome] = await app.deps.liveSync.runDue();
  assert.equal(outcome.execution.status, "unchanged");
  assert.equal(outcome.execution.result, "The content has not changed since the last sync.");
  assert.equal(await Deno.readTextFile(file), before);
  assert.deepEqual(await app.deps.db.select().from(workspaceDocuments), rowsBefore);
  const [queue] = await app.deps.db.select().from(documentSyncQueues).where(
    eq(documentSyncQueues.id, queueId),
  );
  assert.ok(queue.lastSyncedAt !== null);
  assert.ok(queue.nextSyncAt.getTime() > Date.now() + DEFAULT_STALE_AFTER_MS - 60_000);
});

Deno.test("a watched link that cannot be fetched fails the run and keeps the document and its vectors", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  const { location, sailing } = await watchedLink(app, site);
  const file = join(app.storageDir, "documents", location);
  const before = await Deno.readTextFile(file);
  const rowsBefore = await app.deps.db.select().from(workspaceDocuments);
  await enable(app);
  site.state.down = true;
  const [outcome] = await app.deps.liveSync.runDue();
  assert.equal(outcome.execution.status, "failed");
  assert.equal(
    outcome.execution.result,
    "Could not reach https://news.example.test/notice: the server answered 404 Not Found.",
  );
  assert.equal(outcome.unwatched, false);
  assert.equal(await Deno.readTextFile(file), before);
  assert.deepEqual(await app.deps.db.select().from(workspaceDocuments), rowsBefore);
  const texts = await searchTexts(app, sailing.id, "lock gates");
  assert.ok(texts.some((text) => text.includes(OLD_FACT)), "the old vectors still answer");
  const [queue] = await app.deps.db.select().from(documentSyncQueues);
  assert.ok(queue.lastSyncedAt !== null, "a failed run moves the schedule on too");
  assert.ok(queue.nextSyncAt.getTime() > Date.now());
});

Deno.test("runDue does nothing while live sync is off, and the queues stay", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  await watchedLink(app, site);
  const requests = site.state.requests;
  site.state.html = page(NEW_FACT);
  assert.deepEqual(await app.deps.liveSync.runDue(), []);
  await enable(app);
  await app.json("/api/experimental/toggle-live-sync", { json: { updatedStatus: false } });
  assert.deepEqual(await app.deps.liveSync.runDue(), []);
  assert.equal(site.state.requests, requests, "nothing was fetched");
  assert.equal((await app.deps.db.select().from(documentSyncQueues)).length, 1);
  assert.equal((await app.deps.db.select().from(documentSyncExecutions)).length, 0);
  const refused = await app.json("/api/experimental/live-sync/queues/1/sync-now", { method: "POST" });
  assert.equal(refused.status, 409);
  assert.match(String((refused.body as { error: string }).error), /turned off/);
});

Deno.test("POST /api/experimental/live-sync/queues/:id/sync-now syncs one queue at once, due or not", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  const { queueId } = await watchedLink(app, site);
  await app.deps.db.update(documentSyncQueues).set({ nextSyncAt: new Date(Date.now() + 3_600_000) });
  await enable(app);
  site.state.html = page(NEW_FACT);
  const answer = await app.json(`/api/experimental/live-sync/queues/${queueId}/sync-now`, { method: "POST" });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const parsed = SyncNowAnswer.parse(answer.body);
  assert.equal(parsed.execution.status, "success");
  assert.equal(parsed.queue?.id, queueId);
  assert.equal(parsed.queue?.executions[0].id, parsed.execution.id);
  const unchanged = SyncNowAnswer.parse(
    (await app.json(`/api/experimental/live-sync/queues/${queueId}/sync-now`, { method: "POST" })).body,
  );
  assert.equal(unchanged.execution.status, "unchanged");
  assert.deepEqual(
    unchanged.queue?.executions.map((run) => run.status),
    ["unchanged", "success"],
    "newest first",
  );
  const missing = await app.json("/api/experimental/live-sync/queues/999/sync-now", { method: "POST" });
  assert.equal(missing.status, 404);
  const bad = await app.json("/api/experimental/live-sync/queues/abc/sync-now", { method: "POST" });
  assert.equal(bad.status, 400);
});

Deno.test("DELETE /api/experimental/live-sync/queues/:id stops watching the document", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  const { queueId, location, harbour } = await watchedLink(app, site);
  await enable(app);
  await app.deps.liveSync.syncQueue(queueId);
  const answer = await app.json(`/api/experimental/live-sync/queues/${queueId}`, { method: "DELETE" });
  assert.deepEqual([answer.status, answer.body], [200, { success: true, error: null }]);
  assert.equal((await app.deps.db.select().from(documentSyncQueues)).length, 0);
  assert.equal((await app.deps.db.select().from(documentSyncExecutions)).length, 0, "its runs go with it");
  const [row] = await app.deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.workspaceId, harbour.id),
  );
  assert.equal(row.watched, false);
  assert.equal(row.docpath, location, "the document stays in the workspace");
  assert.deepEqual((await app.json("/api/experimental/live-sync/queues")).body, { queues: [] });
  const again = await app.json(`/api/experimental/live-sync/queues/${queueId}`, { method: "DELETE" });
  assert.equal(again.status, 404);
});

Deno.test("live sync keeps the last runs only and stops watching after too many failures in a row", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  const { queueId } = await watchedLink(app, site);
  await enable(app);
  for (let run = 0; run < KEPT_EXECUTIONS + 2; run++) await app.deps.liveSync.syncQueue(queueId);
  const kept = await app.deps.db.select().from(documentSyncExecutions);
  assert.equal(kept.length, KEPT_EXECUTIONS);
  assert.ok(kept.every((run) => run.status === "unchanged"));

  site.state.down = true;
  for (let run = 1; run < MAX_FAILURES_IN_A_ROW; run++) {
    const outcome = await app.deps.liveSync.syncQueue(queueId);
    assert.equal(outcome.unwatched, false, `failure ${run}`);
  }
  const last = await app.deps.liveSync.syncQueue(queueId);
  assert.equal(last.execution.status, "failed");
  assert.equal(last.unwatched, true);
  assert.equal((await app.deps.db.select().from(documentSyncQueues)).length, 0);
  const [row] = await app.deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.watched, true),
  );
  assert.equal(row, undefined, "the document is no longer watched");
});

Deno.test("LiveSync ticks on its own while enabled and stops cleanly", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  await watchedLink(app, site);
  site.state.html = page(NEW_FACT);
  const worker = new LiveSync({ intervalMs: 20 });
  await worker.start(app.deps);
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await app.deps.db.select().from(documentSyncExecutions)).length, 0, "off: no tick runs");
    await worker.setEnabled(true);
    for (let waited = 0; waited < 10_000; waited += 25) {
      if ((await app.deps.db.select().from(documentSyncExecutions)).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const [run] = await app.deps.db.select().from(documentSyncExecutions);
    assert.equal(run?.status, "success");
  } finally {
    await worker.stop();
  }
});

Deno.test("a sync interrupted by a crash is finished when committed and undone when not", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  const { location, queueId, sailing } = await watchedLink(app, site);
  const file = join(app.storageDir, "documents", location);
  const staging = join(app.storageDir, "documents", ".live-sync");
  const embedder = app.deps.providers.embedder();
  const namespace = workspaceNamespace(sailing.id, embedder);
  const [row] = await app.deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.workspaceId, sailing.id),
  );
  const current = JSON.parse(await Deno.readTextFile(file));
  const vector = await embedder.embedQuery(NEW_FACT);
  const stage = async (newDocId: string) => {
    await app.deps.vectors.upsert(namespace, [{
      id: crypto.randomUUID(),
      docId: newDocId,
      vector,
      text: NEW_FACT,
      metadata: { title: current.title },
    }]);
    await Deno.mkdir(staging, { recursive: true });
    await Deno.writeTextFile(
      join(staging, `queue-${queueId}.json`),
      JSON.stringify({
        version: 1,
        location,
        document: { ...current, pageContent: NEW_FACT },
        swaps: [{ rowId: row.id, namespace, oldDocId: row.docId, newDocId }],
      }),
    );
  };
  const count = async (docId: string) =>
    (await app.deps.vectors.search(namespace, vector, { topK: 100 })).filter((hit) => hit.docId === docId)
      .length;

  // Not committed (the row still names the old id): the new vectors go, the document stays.
  const undone = crypto.randomUUID();
  await stage(undone);
  const restarted = new LiveSync();
  await restarted.start(app.deps);
  await restarted.stop();
  assert.equal(await count(undone), 0);
  assert.ok(await count(row.docId) > 0);
  assert.equal(JSON.parse(await Deno.readTextFile(file)).pageContent, current.pageContent);
  assert.deepEqual([...Deno.readDirSync(staging)], []);

  // Committed (the row names the new id): the document takes the new text and the old vectors go.
  const committed = crypto.randomUUID();
  await stage(committed);
  await app.deps.db.update(workspaceDocuments).set({ docId: committed }).where(
    eq(workspaceDocuments.id, row.id),
  );
  const again = new LiveSync();
  await again.start(app.deps);
  await again.stop();
  assert.equal(JSON.parse(await Deno.readTextFile(file)).pageContent, NEW_FACT);
  assert.equal(await count(row.docId), 0);
  assert.equal(await count(committed), 1);
  assert.deepEqual([...Deno.readDirSync(staging)], []);
  const [workspace] = await app.deps.db.select().from(workspaces).where(eq(workspaces.id, sailing.id));
  assert.equal(workspace.name, "Sailing");
});
