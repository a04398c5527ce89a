import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { addUser, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { BUILT_SETTINGS_PAGES, menuGuard } from "../../shared/routes.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

/** Every request the page made that failed or was answered 4xx/5xx. */
function watchFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  // A request cut short by leaving the page (ERR_ABORTED) is not a failure of the page.
  page.on("requestfailed", (request) => {
    if (!/ERR_ABORTED/.test(request.failure()?.errorText ?? "")) failures.push(`failed ${request.url()}`);
  });
  return failures;
}

/** What a screen offers once it has loaded: enabled controls and shown data, counted in its content area. */
function substance(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector(".settings-content");
    if (!root) return { controls: 0, data: 0 };
    const shown = (element: Element) => (element as HTMLElement).offsetParent !== null;
    const controls = Array.from(root.querySelectorAll("button, input, select, textarea, a[href]"))
      .filter((element) => shown(element) && !(element as HTMLInputElement).disabled).length;
    const data = Array.from(root.querySelectorAll("td, dd, li, input, select, textarea"))
      .filter((element) =>
        shown(element) &&
        ((element as HTMLInputElement).value || element.textContent || "").trim().length > 0
      ).length;
    return { controls, data };
  });
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  let value = await read();
  while (!ok(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

Deno.test({
  name:
    "browser: each role walks the settings menu; every page it lists has controls or data and fails no call",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi({ models: ["fake-model"] });
    await using app = await configuredTestApp({ llm: llm.baseURL });
    await app.json("/api/workspace/new", { json: { name: "Walk" } });
    const admin = await multiUserInstance(app);
    const sessions: Record<"admin" | "manager" | "default", Session> = {
      admin,
      manager: await addUser(app, admin, "morgan", "manager"),
      default: await addUser(app, admin, "dana", "default"),
    };
    const url = app.listen();
    const browser = await launchChromium();
    try {
      for (const role of ["admin", "manager", "default"] as const) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        await signIn(page, url, sessions[role]);
        const errors = watchErrors(page);
        const failures = watchFailures(page);
        await page.goto(`${url}/`);
        await hydrated(page);
        const settingsLink = page.locator(".sidebar").getByRole("link", { name: "Settings", exact: true });

        if (role === "default") {
          assert.equal(await settingsLink.count(), 0, "a default user is offered no settings");
          for (const name of BUILT_SETTINGS_PAGES) {
            await page.goto(`${url}/settings/${name}`);
            await page.waitForURL(`${url}/`);
            await hydrated(page);
          }
          assert.deepEqual(errors, [], "default user: console errors");
          assert.deepEqual(failures, [], "default user: failed requests");
          await context.close();
          continue;
        }

        await settingsLink.click();
        await page.waitForURL(`${url}/settings/llm-preference`);
        await hydrated(page);
        const menu = page.locator(".settings-nav");
        const listed: string[] = [];
        for (const link of await menu.locator("a").all()) {
          if (await link.isVisible()) listed.push((await link.getAttribute("href")) ?? "");
        }
        // The API keys page opens to a manager too, but only an admin is offered it (menuGuard).
        const mayOpen = BUILT_SETTINGS_PAGES.filter((name) =>
          role === "admin" || menuGuard(name) !== "admin"
        );
        assert.deepEqual(listed, mayOpen.map((name) => `/settings/${name}`), `${role}: the menu lists`);
        // A group whose pages the role may not open is not shown either (a manager has the embed pages in Tools).
        const headings = await menu.locator(".settings-group-heading").evaluateAll((elements) =>
          elements.filter((element) => (element as HTMLElement).offsetParent !== null)
            .map((element) => element.textContent)
        );
        assert.deepEqual(
          headings,
          role === "admin"
            ? [
              "AI Providers",
              "Agents",
              "Administration",
              "Security & Privacy",
              "Customization",
              "Tools",
              "Experimental",
            ]
            : ["AI Providers", "Security & Privacy", "Tools", "Experimental"],
          `${role}: the menu's groups`,
        );

        for (const href of listed) {
          await page.goto(url + href);
          await hydrated(page);
          assert.equal(new URL(page.url()).pathname, href, `${role} stays on ${href}`);
          await page.locator(".settings-content h1").waitFor();
          const found = await eventually(
            () => substance(page),
            (value) => value.controls + value.data > 0,
          );
          assert.ok(found.controls + found.data > 0, `${role}: ${href} shows neither controls nor data`);
          await page.waitForLoadState("networkidle");
          assert.deepEqual(errors, [], `${role}: console errors on ${href}`);
          assert.deepEqual(failures, [], `${role}: failed requests on ${href}`);
        }
        await page.screenshot({ path: new URL(`settings-menu-${role}.png`, SCREENSHOTS).pathname });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: on a phone the settings menu is one row naming the current page, opening the whole menu",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      for (const colorScheme of ["light", "dark"] as const) {
        const page = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme });
        const errors = watchErrors(page);
        await page.goto(`${url}/settings/privacy`);
        await hydrated(page);
        const toggle = page.getByRole("button", { name: /Settings\s*Privacy & Data/ });
        assert.equal(await toggle.getAttribute("aria-expanded"), "false");
        const menu = page.locator("#settings-menu");
        assert.equal(await menu.isVisible(), false, "folded at first");
        const heading = await page.locator(".settings-content h1").boundingBox();
        assert.ok(heading && heading.y < 844 / 3, `the page's heading is near the top (${heading?.y})`);
        await page.screenshot({
          path: new URL(`settings-menu-phone-${colorScheme}.png`, SCREENSHOTS).pathname,
        });

        await toggle.click();
        assert.equal(await menu.isVisible(), true);
        // The whole menu, in the page's flow: no inner scroll box hides an entry.
        const box = await menu.evaluate((element) => ({
          scroll: element.scrollHeight,
          client: element.clientHeight,
          nav: element.closest("nav")!.scrollHeight - element.closest("nav")!.clientHeight,
        }));
        assert.ok(box.scroll <= box.client + 1 && box.nav <= 1, JSON.stringify(box));
        const current = menu.getByRole("link", { name: "Privacy & Data" });
        assert.equal(await current.getAttribute("aria-current"), "page");
        assert.ok(await current.isVisible());
        await page.screenshot({
          path: new URL(`settings-menu-phone-open-${colorScheme}.png`, SCREENSHOTS).pathname,
          fullPage: true,
        });
        await menu.getByRole("link", { name: "Vector Database" }).click();
        await page.waitForURL(`${url}/settings/vector-database`);
        await hydrated(page);
        await page.getByRole("button", { name: /Settings\s*Vector Database/ }).waitFor();
        assert.deepEqual(errors, []);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});
