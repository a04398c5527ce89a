import assert from "node:assert/strict";
import { PUBLIC_TEST_ADDRESS } from "../../server/testing/connector_context.ts";
import { CLOUD_USER, startFakeConfluence } from "../../server/testing/fake_confluence.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

const CLOUD_HOST = "harbour.atlassian.net";

Deno.test({
  name: "browser: a Confluence import followed across a reload ends with the reference's own toast",
  ...browserTestOptions,
  async fn() {
    await using confluence = startFakeConfluence("cloud", [{
      key: "DOCS",
      name: "Harbour Docs",
      pages: [
        { id: "101", title: "Home", storage: "<p>Welcome to the harbour.</p>" },
        { id: "102", title: "Tides", parents: ["101"], storage: "<p>Twice a day.</p>" },
      ],
    }]);
    await using app = await configuredTestApp();
    // The server's guarded fetch reaches the fake on loopback under a public name; the pages are held until the
    // page has been reloaded.
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    app.deps.linkFetch = {
      resolve: (hostname) => Promise.resolve(hostname === CLOUD_HOST ? [PUBLIC_TEST_ADDRESS] : []),
      fetch: (async (input: URL | RequestInfo, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.hostname !== CLOUD_HOST) throw new Error(`The guard let ${url.href} through.`);
        if (url.pathname.endsWith("/rest/api/content")) await held;
        return fetch(`${confluence.baseURL}${url.pathname}${url.search}`, init);
      }) as typeof fetch,
    };
    await app.json("/api/workspace/new", { json: { name: "Harbour" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/harbour`);
      await hydrated(page);
      const manager = page.locator(".doc-manager");
      const openConnectors = async () => {
        await page.getByRole("button", { name: /Documents \(0\)/ }).click();
        await manager.getByRole("tab", { name: "Data connectors" }).click();
      };
      await openConnectors();
      await manager.getByRole("radio", { name: /Confluence/ }).click();
      await manager.getByLabel(/Confluence base URL/).fill(`https://${CLOUD_HOST}`);
      await manager.getByLabel(/Confluence space key/).fill("DOCS");
      await manager.getByLabel(/Confluence Username/).fill(CLOUD_USER.username);
      await manager.getByLabel(/Confluence Access Token/).fill(CLOUD_USER.accessToken);
      await manager.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Fetching all pages for Confluence space - this may take a while.").waitFor();
      const label = `DOCS (${CLOUD_HOST})`;
      await manager.locator(".connector-import", { hasText: label }).getByText("Importing…").waitFor();

      // After a reload nothing of the form's answer is left in the page: the import is read back from the server.
      await page.reload();
      await hydrated(page);
      await openConnectors();
      await manager.locator(".connector-import", { hasText: label }).getByText("Importing…").waitFor();
      release();
      await page.getByText(
        "Pages collected from Confluence space DOCS. Output folder is confluence-harbour-atlassian-net-docs.",
      ).waitFor();
      assert.equal(await page.getByText(/files? collected from/).count(), 0, "not the generic toast");
      const library = manager.locator(".doc-library");
      await library.getByText("Harbour Docs › Home › Tides").waitFor();
      assert.deepEqual(errors, []);
    } finally {
      release();
      await browser.close();
    }
  },
});
