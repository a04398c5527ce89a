import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

type Texts = { [key: string]: string | Texts };

/** A locale file of the interface, or null when that language's file is not there. */
function locale(code: string): Texts | null {
  try {
    return JSON.parse(Deno.readTextFileSync(new URL(`../../client/locales/${code}.json`, import.meta.url)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

function text(texts: Texts, key: string): string {
  const found = key.split(".").reduce<string | Texts>((node, part) => (node as Texts)[part], texts);
  assert.equal(typeof found, "string", key);
  return found as string;
}

const EN = locale("en")!;
const DE = locale("de");
const AR = locale("ar");

async function htmlLanguage(page: Page) {
  return await page.evaluate(() => `${document.documentElement.lang} ${document.documentElement.dir}`);
}

Deno.test({
  name:
    "browser: in German the login and home pages speak German; the account modal switches back to English",
  ...browserTestOptions,
  ignore: browserTestOptions.ignore || DE === null,
  async fn() {
    const de = DE!;
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      // The browser asks for German (Accept-Language and navigator.languages): the server renders German.
      const context = await browser.newContext({ locale: "de-DE" });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/login`);
      await hydrated(page);
      assert.equal(await htmlLanguage(page), "de ltr");
      await page.getByText(text(de, "login.multiIntro")).waitFor();
      assert.equal(await page.getByLabel(text(de, "login.username")).count(), 1);
      assert.notEqual(text(de, "login.multiIntro"), text(EN, "login.multiIntro"));

      await signIn(page, url, admin);
      await page.goto(`${url}/`);
      await hydrated(page);
      assert.equal(await htmlLanguage(page), "de ltr");
      const settings = page.locator(".sidebar").getByText(text(de, "sidebar.settings"), { exact: true });
      await settings.first().waitFor();
      assert.deepEqual(errors, [], "hydration matched the server's German page");

      // The picker: English, saved; the interface changes at once, without a reload.
      await page.evaluate(() => (globalThis as unknown as { stayed: boolean }).stayed = true);
      await page.locator(".account-avatar").click();
      await page.getByRole("button", { name: text(de, "account.menu.account"), exact: true }).click();
      const select = page.getByLabel(text(de, "account.language"));
      assert.equal(await select.inputValue(), "de");
      const options = await select.locator("option").allTextContents();
      assert.ok(options.includes("English") && options.includes("Deutsch"), options.join(", "));
      await select.selectOption("en");
      await page.getByRole("button", { name: text(de, "account.save"), exact: true }).click();
      await page.locator(".sidebar").getByText(text(EN, "sidebar.settings"), { exact: true }).first()
        .waitFor();
      assert.equal(await htmlLanguage(page), "en ltr");
      assert.equal(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed), true);
      const cookie = (await context.cookies()).find((found) => found.name === "i18next");
      assert.equal(cookie?.value, "en");

      // The next page comes from the server in English, though the browser still asks for German.
      await page.reload();
      await hydrated(page);
      assert.equal(await htmlLanguage(page), "en ltr");
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: in Arabic the page is right to left, the sidebar on the right, on a desktop and a phone",
  ...browserTestOptions,
  ignore: browserTestOptions.ignore || AR === null,
  async fn() {
    const ar = AR!;
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Docs Demo" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const phone = viewport.width < 760;
        const context = await browser.newContext({ viewport });
        await context.addCookies([{ name: "i18next", value: "ar", url }]);
        const page = await context.newPage();
        const errors = watchErrors(page);
        for (const path of ["/", "/workspace/docs-demo", "/settings/llm-preference"]) {
          await page.goto(`${url}${path}`);
          await hydrated(page);
          assert.equal(await htmlLanguage(page), "ar rtl", path);
          // Nothing sticks out sideways (a phone scrolls only up and down).
          const overflow = await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          );
          assert.ok(overflow <= 1, `${path} at ${viewport.width}px: ${overflow}px wider than the screen`);
          await page.screenshot({
            path: new URL(`rtl-${path.split("/")[1] || "home"}-${viewport.width}.png`, SCREENSHOTS).pathname,
          });
        }
        await page.goto(`${url}/workspace/docs-demo`);
        await hydrated(page);
        if (phone) {
          // On a phone the menu button opens the sidebar; it sits at the right end of the top bar's start.
          await page.getByRole("button", { name: text(ar, "sidebar.openMenu") }).click();
        } else {
          const sidebar = (await page.locator(".sidebar").boundingBox())!;
          const main = (await page.locator("main.main").boundingBox())!;
          assert.ok(sidebar.x > main.x, `the sidebar (x ${sidebar.x}) is right of the chat (x ${main.x})`);
          assert.ok(sidebar.x + sidebar.width >= viewport.width - 1, "the sidebar touches the right edge");
        }
        const input = page.locator("textarea").first();
        assert.equal(await input.evaluate((element) => getComputedStyle(element).direction), "rtl");
        assert.ok(
          await page.getByText(text(ar, "sidebar.workspaces"), { exact: true }).first().isVisible(),
          "the sidebar speaks Arabic",
        );
        assert.deepEqual(errors, []);
        await context.close();
      }
    } finally {
      await browser.close();
    }
  },
});
