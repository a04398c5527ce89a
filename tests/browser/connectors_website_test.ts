import assert from "node:assert/strict";
import { PUBLIC_TEST_ADDRESS } from "../../server/testing/connector_context.ts";
import { articlePage, startFakeWebsite } from "../../server/testing/fake_website.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

const SITE_HOST = "docs.example.test";

Deno.test({
  name:
    "browser: a website crawled from the Data connectors tab, its progress followed, its pages in the library",
  ...browserTestOptions,
  async fn() {
    await using site = startFakeWebsite({
      robots: null,
      pages: {
        "/": articlePage("Harbour guide home", ["/guide"]),
        "/guide": articlePage("Reading a tide table", []),
      },
    });
    await using app = await configuredTestApp();
    // The server's guarded fetch reaches the fake site on loopback under a public name; the second page is held
    // until the test has seen the import running.
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    app.deps.linkFetch = {
      resolve: (hostname) => Promise.resolve(hostname === SITE_HOST ? [PUBLIC_TEST_ADDRESS] : []),
      fetch: (async (input: URL | RequestInfo, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.hostname !== SITE_HOST) throw new Error(`The guard let ${url.href} through.`);
        if (url.pathname === "/guide") await held;
        return fetch(`${site.baseURL}${url.pathname}${url.search}`, init);
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
      await page.getByRole("button", { name: /Documents \(0\)/ }).click();
      const manager = page.locator(".doc-manager");
      await manager.getByRole("tab", { name: "Data connectors" }).click();
      await manager.getByRole("radio", { name: /Bulk Link Scraper/ }).click();

      await manager.getByLabel(/Website URL/).fill(`https://${SITE_HOST}/`);
      await manager.getByLabel(/Crawl Depth/).fill("1");
      await manager.getByLabel(/Maximum Pages/).fill("5");
      await manager.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Scraping website - this may take a while.").waitFor();
      const progress = manager.locator(".connector-import", { hasText: `https://${SITE_HOST}/` });
      await progress.getByText("Importing…").waitFor();

      release();
      await page.getByText("Successfully scraped 2 pages!").waitFor();
      await progress.getByText("2 found · 2 done · 0 skipped").waitFor({ state: "attached" });
      // The library opens the site's folder with both pages.
      const library = manager.locator(".doc-library");
      await library.getByText("Harbour guide home").waitFor();
      await library.getByText("Reading a tide table").waitFor();
      assert.equal(await library.getByLabel("Folder", { exact: true }).inputValue(), "docs-example-test");
      assert.deepEqual(errors, []);
    } finally {
      release();
      await browser.close();
    }
  },
});
