import assert from "node:assert/strict";
import { browserTestOptions, launchChromium } from "./chromium.ts";

Deno.test({
  name:
    "browser: a navigation may take longer than a page's own default timeout (a loaded machine's first load)",
  ...browserTestOptions,
  async fn() {
    // The page answers after 2 s; each page's own default timeout is 0.5 s, which its navigations do not use.
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return new Response("<title>Slow</title><p>Here at last.</p>", {
        headers: { "content-type": "text/html" },
      });
    });
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const browser = await launchChromium();
    try {
      const pages = [await browser.newPage(), await (await browser.newContext()).newPage()];
      for (const page of pages) {
        page.setDefaultTimeout(500);
        const answer = await page.goto(url);
        assert.equal(answer?.status(), 200);
        assert.equal(await page.title(), "Slow");
      }
      // Other waits keep the page's timeout.
      await assert.rejects(() => pages[0].getByText("Never shown").waitFor(), /Timeout 500ms exceeded/);
    } finally {
      await browser.close();
    }
  },
});
