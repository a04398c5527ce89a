import assert from "node:assert/strict";
import { createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { BUILT_SETTINGS_PAGES, ONBOARDING_STEPS, WORKSPACE_SETTINGS_TABS } from "../../shared/routes.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

// Calls these pages make that fail by design on a fresh instance: single sign-on is off (403) and the
// invitation code does not exist (404).
const EXPECTED_MISSING = /\/api\/(request-token\/sso\/simple|invite\/)/;

Deno.test({
  name: "browser: every route hydrates without console errors and shows its heading",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    // Configured, so that the open instance's pages are not sent to onboarding (spec 01 §2.2).
    await app.json("/api/system/update-env", { json: genericOpenAiSettings("http://127.0.0.1:9/v1") });
    await app.json("/api/workspace/new", { json: { name: "Routes" } });
    const url = app.listen();
    const routes = [
      "/",
      "/sso/simple",
      "/sso/simple?token=abc",
      "/accept-invite/CODE-1",
      "/workspace/routes",
      "/onboarding",
      ...ONBOARDING_STEPS.map((step) => `/onboarding/${step}`),
      "/onboarding/embedding-preference",
      "/onboarding/vector-database",
      ...WORKSPACE_SETTINGS_TABS.map((tab) => `/workspace/routes/settings/${tab}`),
      ...BUILT_SETTINGS_PAGES.map((page) => `/settings/${page}`),
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
        // Failed calls are checked by address above (the console message does not name the address).
        const unexpected = errors.filter((error) =>
          !/Failed to load resource: the server responded with a status of/.test(error)
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
