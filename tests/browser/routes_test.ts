import assert from "node:assert/strict";
import { createTestApp } from "../../server/testing/test_app.ts";
import { ONBOARDING_STEPS, SETTINGS_PAGES, WORKSPACE_SETTINGS_TABS } from "../../shared/routes.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

// Calls these pages make to endpoints that the authentication issue adds; their 404 is expected for now.
const EXPECTED_MISSING = /\/api\/(request-token\/sso\/simple|invite\/)/;

Deno.test({
  name: "browser: every route hydrates without console errors and shows its heading",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    await app.json("/api/workspace/new", { json: { name: "Routes" } });
    const url = app.listen();
    const routes = [
      "/",
      "/sso/simple",
      "/sso/simple?token=abc",
      "/accept-invite/CODE-1",
      "/workspace/routes",
      "/fine-tuning",
      "/onboarding",
      ...ONBOARDING_STEPS.map((step) => `/onboarding/${step}`),
      "/onboarding/embedding-preference",
      "/onboarding/vector-database",
      ...WORKSPACE_SETTINGS_TABS.map((tab) => `/workspace/routes/settings/${tab}`),
      ...Object.keys(SETTINGS_PAGES).map((page) => `/settings/${page}`),
    ];
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const failed: string[] = [];
      page.on("response", (response) => {
        if (response.status() >= 400 && !EXPECTED_MISSING.test(response.url())) {
          failed.push(`${response.status()} ${response.url()}`);
        }
      });
      for (const route of routes) {
        const errors = watchErrors(page);
        await page.goto(url + route);
        await hydrated(page);
        await page.locator("h1").first().waitFor({ timeout: 5000 }).catch(() => {
          throw new Error(`${route} shows no heading`);
        });
        const unexpected = errors.filter((error) =>
          !/Failed to load resource: the server responded with a status of 404/.test(error)
        );
        assert.deepEqual(unexpected, [], route);
        page.removeAllListeners("console");
        page.removeAllListeners("pageerror");
      }
      assert.deepEqual(failed, []);

      await page.goto(`${url}/login`);
      await page.waitForURL(`${url}/`, { timeout: 10_000 });
      await hydrated(page);
    } finally {
      await browser.close();
    }
  },
});
