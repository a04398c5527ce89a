import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { documentSyncQueues } from "../../db/schema.ts";
import { LIVE_SYNC_LABEL } from "../../shared/api/live_sync.ts";
import { UploadAnswer } from "../../shared/api/documents.ts";
import { configuredTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

const notice = (fact: string) =>
  `<!doctype html><html><head><title>Harbour notice</title></head><body><article><h1>Harbour notice</h1>
<p>${fact} Sailors should plan their departures around the lock, which stays open for two hours.</p>
</article></body></html>`;

/** A site on loopback standing for a public web page that changes. */
function startSite() {
  const state = { html: notice("The lock opens at seven in the morning.") };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(state.html, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  return { state, port: () => server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

/** A link document in a workspace, watched, fetched through a resolver and fetch that lead to the site. */
async function watchedDocument(app: TestApp, site: ReturnType<typeof startSite>) {
  app.deps.linkFetch = {
    resolve: () => Promise.resolve(["93.184.215.20"]),
    fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`http://127.0.0.1:${site.port()}${url.pathname}`, init);
    }) as typeof fetch,
  };
  await app.json("/api/workspace/new", { json: { name: "Harbour" } });
  const uploaded = UploadAnswer.parse(
    (await app.json("/api/workspace/harbour/upload-link", {
      json: { link: "https://news.example.test/notice" },
    })).body,
  );
  const location = uploaded.documents![0].location;
  await app.json("/api/workspace/harbour/update-embeddings", { json: { adds: [location] } });
  const watched = await app.json("/api/workspace/harbour/update-watch-status", {
    json: { docPath: location, watchStatus: true },
  });
  assert.equal(watched.status, 200, JSON.stringify(watched.body));
}

/** Chrome reports refused calls as console errors; none is expected here. */
const TITLE = "news.example.test_notice.html";

Deno.test({
  name: "browser: the live sync switch persists, and the manage screen syncs and stops watching a document",
  ...browserTestOptions,
  async fn() {
    await using site = startSite();
    await using app = await configuredTestApp();
    await watchedDocument(app, site);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);

      // The switch saves at once and is still on after a reload.
      await page.goto(`${url}/settings/beta-features`);
      await hydrated(page);
      const toggle = page.getByRole("switch", { name: "Keep watched documents up to date" });
      await toggle.waitFor();
      assert.equal(await toggle.isChecked(), false, "off by default");
      await toggle.click();
      await page.getByText("Live document sync is on.").waitFor();
      assert.equal(app.deps.settings.label(LIVE_SYNC_LABEL), "enabled");
      await page.reload();
      await hydrated(page);
      await page.getByRole("switch", { name: "Keep watched documents up to date" }).waitFor();
      assert.equal(
        await page.getByRole("switch", { name: "Keep watched documents up to date" }).isChecked(),
        true,
      );

      // The manage screen lists the watched document; Sync now fetches the changed page and shows the result.
      await page.getByRole("link", { name: "Manage watched documents →" }).click();
      await page.waitForURL(/\/settings\/beta-features\/live-document-sync\/manage$/);
      await hydrated(page);
      const card = page.locator(".sync-queue", { hasText: TITLE });
      await card.waitFor();
      await card.getByText("Not synced yet").waitFor();
      await card.getByRole("link", { name: "Harbour" }).waitFor();
      await card.getByText("https://news.example.test/notice").waitFor();
      assert.equal(await page.getByText("Live document sync is turned off").count(), 0);

      site.state.html = notice("The lock now opens at noon, after the dredging works.");
      await card.getByRole("button", { name: `Sync ${TITLE} now` }).click();
      await page.getByText(`${TITLE} was updated.`).waitFor();
      await card.locator(".sync-status", { hasText: "Updated" }).waitFor();
      await card.getByText(/The content changed: .* embedded again in 1 workspace\./).waitFor();
      assert.notEqual(await card.getByText("Not yet").count(), 1, "the last sync time is shown");

      await card.getByRole("button", { name: `Sync ${TITLE} now` }).click();
      await page.getByText(`${TITLE} has not changed.`).waitFor();
      await card.locator(".sync-status", { hasText: "Unchanged" }).waitFor();

      // On a phone the card fits the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.ok(overflow <= 1, `no sideways scrolling on a phone (${overflow}px)`);
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("live-sync-manage-phone.png", SCREENSHOTS)) });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Turned off elsewhere: the screen says so and links back to the switch.
      await app.json("/api/experimental/toggle-live-sync", { json: { updatedStatus: false } });
      await page.reload();
      await hydrated(page);
      await page.getByText("Live document sync is turned off").waitFor();
      await page.getByRole("link", { name: "Turn it on" }).waitFor();
      assert.equal(await card.getByRole("button", { name: `Sync ${TITLE} now` }).isDisabled(), true);

      // Stop watching asks first, then the document leaves the list.
      await card.getByRole("button", { name: `Stop watching ${TITLE}` }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Stop watching this document?").waitFor();
      await dialog.getByRole("button", { name: "Stop watching" }).click();
      await page.getByText(`${TITLE} is no longer watched.`).waitFor();
      await page.getByText("No watched documents yet").waitFor();
      assert.equal((await app.deps.db.select().from(documentSyncQueues)).length, 0);

      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
