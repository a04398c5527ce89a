import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { configuredTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { multiUserInstance } from "../../server/testing/accounts.ts";
import {
  BUILT_SETTINGS_PAGES,
  ONBOARDING_STEPS,
  paths,
  WORKSPACE_SETTINGS_TABS,
} from "../../shared/routes.ts";
import {
  browserTestOptions,
  hydrated,
  launchChromium,
  pageErrors,
  SCREENSHOTS,
  watchErrors,
} from "./chromium.ts";
import { signIn } from "./sessions.ts";

// Calls these pages make that fail by design on a fresh instance: single sign-on is off (403) and the
// invitation code does not exist (404).
const EXPECTED_MISSING = /\/api\/(request-token\/sso\/simple|invite\/)/;

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A workspace with a PDF in it, a chat that cites it, and a thread: what a user's screens usually hold. */
async function furnish(app: TestApp) {
  await app.json("/api/workspace/new", { json: { name: "Field Notes" } });
  const form = new FormData();
  const pdf = await Deno.readFile(new URL("../fixtures/documents/pdflatex-4-pages.pdf", import.meta.url));
  form.append("file", new Blob([pdf], { type: "application/pdf" }), "pdflatex-4-pages.pdf");
  const uploaded =
    await (await app.request("/api/workspace/field-notes/upload", { method: "POST", body: form }))
      .json();
  await app.json("/api/workspace/field-notes/update-embeddings", {
    json: { adds: uploaded.documents.map((document: { location: string }) => document.location) },
  });
  const chat = await app.request("/api/workspace/field-notes/stream-chat", {
    method: "POST",
    body: JSON.stringify({ message: "What does the document say about pages?" }),
  });
  await chat.text();
  const thread = await app.json<{ thread: { slug: string } }>("/api/workspace/field-notes/thread/new", {
    json: {},
  });
  return thread.body.thread.slug;
}

/**
 * Opens each route once: it hydrates without console errors or failed calls and shows its heading. Then the
 * same page is shown on a desktop and a phone, light and dark (the layout follows media queries, so no reload
 * is needed): the phone never scrolls sideways, and each of the four leaves a screenshot in
 * test-results/screens/<folder>/<screen>/.
 */
async function visitAll(
  browser: Browser,
  url: string,
  routes: string[],
  options: { folder: string; signInAs?: Parameters<typeof signIn>[2] },
) {
  const page = await browser.newPage({ viewport: DESKTOP });
  if (options.signInAs) await signIn(page, url, options.signInAs);
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400 && !EXPECTED_MISSING.test(response.url())) {
      failed.push(`${response.status()} ${response.url()}`);
    }
  });
  for (const route of routes) {
    const errors = watchErrors(page);
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(url + route);
    await hydrated(page);
    await page.locator("h1").first().waitFor({ timeout: 5000 }).catch(() => {
      throw new Error(`${route} shows no heading`);
    });
    await page.waitForLoadState("networkidle");
    const file = route.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/, "thread").replace(/^\//, "")
      .replace(/[^a-z0-9]+/gi, "-") || "home";
    for (const [screen, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        await page.screenshot({
          path:
            new URL(`screens/${options.folder}/${screen}-${colorScheme}/${file}.png`, SCREENSHOTS).pathname,
        });
      }
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - globalThis.innerWidth
      );
      assert.ok(overflow <= 0, `${screen} ${route} scrolls sideways by ${overflow}px`);
    }
    // Failed calls are checked by address above (the console message does not name the address).
    assert.deepEqual(pageErrors(errors), [], route);
    page.removeAllListeners("console");
    page.removeAllListeners("pageerror");
  }
  assert.deepEqual(failed, []);
  await page.close();
}

Deno.test({
  name: "browser: every screen hydrates cleanly on desktop and phone, light and dark, with screenshots",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi({ models: ["fake-model"] });
    await using app = await configuredTestApp({ llm: llm.baseURL });
    const thread = await furnish(app);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      await visitAll(browser, url, [
        "/",
        "/sso/simple",
        "/sso/simple?token=abc",
        "/accept-invite/CODE-1",
        paths.workspace("field-notes"),
        paths.thread("field-notes", thread),
        "/onboarding",
        ...ONBOARDING_STEPS.map((step) => `/onboarding/${step}`),
        "/onboarding/embedding-preference",
        "/onboarding/vector-database",
        ...WORKSPACE_SETTINGS_TABS.map((tab) => paths.workspaceSettings("field-notes", tab)),
        ...BUILT_SETTINGS_PAGES.map((page) => paths.settings(page)),
      ], { folder: "single-user" });

      // A team's screens: the login, and the account pages an admin manages.
      const admin = await multiUserInstance(app);
      await visitAll(browser, url, ["/login"], { folder: "multi-user" });
      await visitAll(browser, url, ["/", paths.settings("users"), paths.settings("invites")], {
        folder: "multi-user",
        signInAs: admin,
      });
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: the login page of an open instance goes home",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/login`);
      await page.waitForURL(`${url}/`, { timeout: 10_000 });
      await hydrated(page);
    } finally {
      await browser.close();
    }
  },
});
