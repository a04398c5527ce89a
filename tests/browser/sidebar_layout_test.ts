import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { createTestApp, genericOpenAiSettings, type TestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Auto-naming starts a thread's name with its first message; a long first message makes a long name. */
const LONG_THREAD = (
  "Summarize the notes in the quarterly research review, with every open question, the decisions taken " +
  "by the steering group and the follow-ups owed by each team before the next meeting in the spring, please"
).slice(0, 200);
const LONG_WORKSPACE =
  "Research Notes and Documentation for the Quarterly Review of Everything the Team Has Collected So Far";
const RENAME_PROMPT = "What would you like to rename this thread to?";

type Named = { slug: string; name: string };

/** A configured instance with a short-named workspace and a long-named one holding `threads`, in order. */
async function instance(baseURL: string, threads: string[]) {
  const app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(baseURL) });
  await app.json("/api/workspace/new", { json: { name: "Docs Demo" } });
  const { body } = await app.json<{ workspace: Named }>("/api/workspace/new", {
    json: { name: LONG_WORKSPACE },
  });
  const workspace = body.workspace;
  const made: Named[] = [];
  for (const name of threads) made.push(await namedThread(app, workspace.slug, name));
  return { app, workspace, threads: made };
}

async function namedThread(app: TestApp, workspace: string, name: string): Promise<Named> {
  const created = await app.json<{ thread: Named }>(`/api/workspace/${workspace}/thread/new`, {
    method: "POST",
  });
  const renamed = await app.json<{ thread: Named }>(
    `/api/workspace/${workspace}/thread/${created.body.thread.slug}/update`,
    { json: { name } },
  );
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  return renamed.body.thread;
}

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  assert.ok(found, "the element is laid out");
  return found;
}

/** Half a pixel of slack for sub-pixel layout. */
function assertWithin(inner: Box, outer: Box, what: string) {
  const message = `${what}: ${JSON.stringify(inner)} is not within ${JSON.stringify(outer)}`;
  assert.ok(inner.x >= outer.x - 0.5, message);
  assert.ok(inner.x + inner.width <= outer.x + outer.width + 0.5, message);
}

function assertWithinVertically(inner: Box, outer: Box, what: string) {
  const message = `${what}: ${JSON.stringify(inner)} is not within ${JSON.stringify(outer)} vertically`;
  assert.ok(inner.y >= outer.y - 0.5, message);
  assert.ok(inner.y + inner.height <= outer.y + outer.height + 0.5, message);
}

/** The sidebar and its scrolling content: scroll position and sideways overflow. */
function scrollState(page: Page) {
  return page.evaluate(() =>
    [document.querySelector("nav.sidebar")!, document.querySelector(".sidebar-content")!].map((element) => ({
      overflow: element.scrollWidth - element.clientWidth,
      left: element.scrollLeft,
      top: element.scrollTop,
    }))
  );
}

async function assertNoSidewaysScroll(page: Page, when: string) {
  for (const [index, state] of (await scrollState(page)).entries()) {
    const what = index === 0 ? "the sidebar" : "the sidebar's content";
    assert.equal(state.overflow, 0, `${what} is no wider than its box ${when}`);
    assert.equal(state.left, 0, `${what} is not scrolled sideways ${when}`);
  }
}

const shot = (name: string) => fileURLToPath(new URL(name, SCREENSHOTS));

Deno.test({
  name: "browser: long workspace and thread names stay inside the sidebar, with ⚙, ⋯ and the menu usable",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    // Enough threads after the long one that the list scrolls on both screens.
    const fillers = Array.from({ length: 24 }, (_, index) => `Thread ${index + 1}`);
    const { app, workspace, threads } = await instance(llm.baseURL, [LONG_THREAD, ...fillers]);
    await using _app = app;
    const [long] = threads;
    const url = app.listen();
    await Deno.mkdir(SCREENSHOTS, { recursive: true });
    const browser = await launchChromium();
    try {
      for (const [screen, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
        const page = await browser.newPage({ viewport, colorScheme: "light" });
        page.setDefaultTimeout(10_000);
        const errors = watchErrors(page);
        await page.goto(`${url}/workspace/${workspace.slug}/t/${long.slug}`);
        await hydrated(page);
        const sidebar = page.locator("nav.sidebar");
        if (screen === "phone") await page.getByRole("button", { name: "Open the menu" }).click();
        const list = sidebar.getByRole("list", { name: `Threads of ${LONG_WORKSPACE}` });
        const longLink = list.getByRole("link", { name: "Summarize the notes in th…", exact: true });
        await longLink.waitFor();
        const sidebarBox = await box(sidebar);

        // Every row and button of the sidebar, whatever its names, lies within the sidebar's width.
        const workspaceLink = sidebar.getByRole("link", { name: LONG_WORKSPACE, exact: true });
        const gear = sidebar.getByRole("link", { name: `Settings of ${LONG_WORKSPACE}` });
        const dots = list.getByRole("button", { name: `Thread actions for ${LONG_THREAD}`, exact: true });
        // Read in one go: a boundingBox() round trip per row of 25 threads takes seconds.
        const rows = await sidebar.evaluate((nav) =>
          [...nav.querySelectorAll(".workspace-list > li, .thread-item, .thread-link, .thread-menu-button")]
            .map((element) => {
              const { x, y, width, height } = element.getBoundingClientRect();
              return { x, y, width, height, what: element.textContent?.slice(0, 30) };
            })
        );
        assert.ok(rows.length > 50, "every row is measured");
        for (const row of rows) assertWithin(row, sidebarBox, `${screen}: the row or button "${row.what}"`);
        for (
          const [what, element] of [
            ["the long workspace's link", workspaceLink],
            ["its ⚙", gear],
            ["the long thread's link", longLink],
            ["its ⋯", dots],
            ["New Thread", sidebar.getByRole("button", { name: "New Thread" })],
            ["New Workspace", sidebar.getByRole("button", { name: "New Workspace" })],
          ] as const
        ) {
          assertWithin(await box(element), sidebarBox, `${screen}: ${what}`);
        }

        // The names are cut with an ellipsis, the full names in their titles; the buttons follow them.
        const cut = (element: Element) =>
          getComputedStyle(element).textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth;
        assert.equal(await workspaceLink.evaluate(cut), true, `${screen}: the workspace name ellipsizes`);
        assert.equal(await workspaceLink.getAttribute("title"), LONG_WORKSPACE);
        assert.equal(await longLink.getAttribute("title"), LONG_THREAD);
        assert.equal(
          await longLink.evaluate((element) => getComputedStyle(element).textOverflow),
          "ellipsis",
          `${screen}: a thread name that does not fit ellipsizes`,
        );
        const linkBox = await box(longLink);
        const dotsBox = await box(dots);
        assert.ok(linkBox.x + linkBox.width <= dotsBox.x + 0.5, `${screen}: ⋯ follows the thread's name`);
        const workspaceBox = await box(workspaceLink);
        assert.ok(workspaceBox.x + workspaceBox.width <= (await box(gear)).x + 0.5, `${screen}: ⚙ follows`);
        // Visible and the target of a click at their centre (trial: every check of a click, no click).
        await gear.click({ trial: true });
        await dots.click({ trial: true });
        await assertNoSidewaysScroll(page, `(${screen}, menu closed)`);

        // The open menu: inside the sidebar and the window, and nothing scrolls sideways.
        await dots.click();
        const menu = list.locator(".thread-menu-items");
        const rename = menu.getByRole("button", { name: "Rename" });
        await rename.waitFor();
        const menuBox = await box(menu);
        assertWithin(menuBox, sidebarBox, `${screen}: the open menu`);
        assertWithin(menuBox, { x: 0, y: 0, ...viewport }, `${screen}: the open menu`);
        assertWithinVertically(menuBox, { x: 0, y: 0, ...viewport }, `${screen}: the open menu`);
        await assertNoSidewaysScroll(page, `(${screen}, menu open)`);
        assertWithin(await box(gear), sidebarBox, `${screen}: ⚙ with the menu open`);
        await rename.click({ trial: true });
        await page.screenshot({ path: shot(`sidebar-long-names-${screen}-light.png`) });
        await page.emulateMedia({ colorScheme: "dark" });
        await page.screenshot({ path: shot(`sidebar-long-names-${screen}-dark.png`) });
        await page.keyboard.press("Escape");
        await menu.waitFor({ state: "detached" });
        await page.emulateMedia({ colorScheme: "light" });

        // The last thread scrolled to the bottom edge of the list: its menu opens upwards, inside the list,
        // and opening it scrolls nothing.
        const last = list.locator(".thread-item").last();
        await last.evaluate((element) => element.scrollIntoView({ block: "end" }));
        const before = await scrollState(page);
        assert.ok(before[1].top > 0, `${screen}: the list scrolls`);
        const lastDots = last.getByRole("button", { name: `Thread actions for ${fillers.at(-1)}` });
        await lastDots.click();
        const lastMenu = last.locator(".thread-menu-items");
        await lastMenu.getByRole("button", { name: "Delete Thread" }).waitFor();
        const content = await box(sidebar.locator(".sidebar-content"));
        const lastMenuBox = await box(lastMenu);
        assertWithinVertically(lastMenuBox, content, `${screen}: the last thread's menu`);
        assert.ok(
          lastMenuBox.y + lastMenuBox.height <= (await box(lastDots)).y,
          `${screen}: it opens upwards`,
        );
        assert.deepEqual(await scrollState(page), before, `${screen}: opening the menu scrolls nothing`);
        await page.screenshot({ path: shot(`sidebar-menu-upwards-${screen}-light.png`) });
        await page.keyboard.press("Escape");
        await lastMenu.waitFor({ state: "detached" });

        assert.deepEqual(errors, [], `${screen}: no console or hydration errors`);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: renaming a thread from the keyboard uses an in-app dialog with the full name",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    const { app, workspace, threads } = await instance(llm.baseURL, [LONG_THREAD]);
    await using _app = app;
    const url = app.listen();
    await Deno.mkdir(SCREENSHOTS, { recursive: true });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP, colorScheme: "light" });
      page.setDefaultTimeout(10_000);
      const errors = watchErrors(page);
      const browserDialogs: string[] = [];
      page.on("dialog", async (dialog) => {
        browserDialogs.push(`${dialog.type()}: ${dialog.message()}`);
        await dialog.dismiss();
      });
      const updates: string[] = [];
      page.on("request", (request) => {
        if (/\/thread\/[^/]+\/update$/.test(request.url())) updates.push(request.postData() ?? "");
      });
      await page.goto(`${url}/workspace/${workspace.slug}`);
      await hydrated(page);
      const list = page.getByRole("list", { name: `Threads of ${LONG_WORKSPACE}` });
      await list.getByRole("link", { name: "Summarize the notes in th…", exact: true }).waitFor();
      const focused = () =>
        page.evaluate(() => {
          const element = document.activeElement;
          return element?.getAttribute("aria-label") ?? element?.textContent ?? null;
        });

      // Tab to the thread's ⋯, open it with Enter: the menu takes focus on Rename.
      const actions = (name: string) => `Thread actions for ${name}`;
      for (let presses = 0; (await focused()) !== actions(LONG_THREAD); presses++) {
        assert.ok(presses < 20, "Tab reaches the thread's ⋯");
        await page.keyboard.press("Tab");
      }
      const openRename = async () => {
        await page.keyboard.press("Enter");
        assert.equal(await focused(), "Rename", "the menu's first item has focus");
        await page.keyboard.press("Enter");
      };
      await openRename();

      // The dialog asks the spec's question, with the full name in the field, focused and selected.
      const dialog = page.getByRole("dialog", { name: RENAME_PROMPT });
      await dialog.waitFor();
      const field = dialog.getByRole("textbox", { name: "Thread name" });
      assert.equal(await field.inputValue(), LONG_THREAD, "the full name, not the cut one");
      assert.deepEqual(
        await field.evaluate((input: HTMLInputElement) => [
          document.activeElement === input,
          input.selectionStart,
          input.selectionEnd,
        ]),
        [true, 0, LONG_THREAD.length],
        "the field has focus with all of its text selected",
      );
      await page.screenshot({ path: shot("thread-rename-desktop-light.png") });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: shot("thread-rename-desktop-dark.png") });
      await page.emulateMedia({ colorScheme: "light" });

      // Escape closes it without a call, and focus is back on the ⋯.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.equal(await focused(), actions(LONG_THREAD), "focus returns to the ⋯ after Escape");
      assert.deepEqual(updates, [], "no update call after Escape");

      // Typing replaces the selected name; Enter saves.
      await openRename();
      await dialog.waitFor();
      await page.keyboard.type("Harbour notes");
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "hidden" });
      await list.getByRole("link", { name: "Harbour notes", exact: true }).waitFor();
      assert.deepEqual(updates.map((body) => JSON.parse(body)), [{ name: "Harbour notes" }]);
      const { body } = await app.json<{ threads: Named[] }>(`/api/workspace/${workspace.slug}/threads`);
      assert.deepEqual(body.threads.map((thread) => thread.name), ["Harbour notes"]);
      assert.equal(body.threads[0].slug, threads[0].slug);
      assert.equal(await focused(), actions("Harbour notes"), "focus returns to the ⋯ after saving");

      assert.deepEqual(browserDialogs, [], "no browser prompt, confirm or alert");
      assert.deepEqual(errors, [], "no console or hydration errors");
    } finally {
      await browser.close();
    }
  },
});
