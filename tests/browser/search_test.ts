import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { addUser, bearer, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { configuredTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

type Named = { id: number; slug: string; name: string };

async function newWorkspace(app: TestApp, by: Session | null, name: string): Promise<Named> {
  const created = await app.json<{ workspace: Named }>("/api/workspace/new", {
    ...(by ? bearer(by.token) : {}),
    json: { name },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.workspace;
}

/** A thread of `by` in the workspace, renamed to `name`. */
async function newThread(app: TestApp, by: Session | null, workspace: string, name: string): Promise<Named> {
  const auth = by ? bearer(by.token) : {};
  const created = await app.json<{ thread: Named }>(`/api/workspace/${workspace}/thread/new`, {
    ...auth,
    method: "POST",
  });
  const renamed = await app.json<{ thread: Named }>(
    `/api/workspace/${workspace}/thread/${created.body.thread.slug}/update`,
    { ...auth, json: { name } },
  );
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  return renamed.body.thread;
}

const field = (page: Page) => page.getByRole("searchbox", { name: "Search workspaces and threads" });
const results = (page: Page) => page.getByRole("region", { name: "Search results" });

/** The names of the result links under a heading ("Workspaces", "Threads"), once the search has settled. */
async function resultNames(page: Page, heading: "Workspaces" | "Threads"): Promise<string[]> {
  await results(page).and(page.locator('[aria-busy="false"]')).waitFor();
  const list = results(page).getByRole("list", { name: heading, exact: true });
  if (await list.count() === 0) return [];
  return (await list.getByRole("link").allTextContents()).map((text) => text.trim());
}

/** Types a term and waits for the answer to it (the field settles 500 ms before it asks). */
async function search(page: Page, term: string) {
  const answered = page.waitForResponse((response) =>
    response.url().endsWith("/api/workspace/search") &&
    response.request().postDataJSON()?.searchTerm === term.trim()
  );
  await field(page).fill(term);
  assert.equal((await answered).status(), 200);
  await results(page).and(page.locator('[aria-busy="false"]')).waitFor();
}

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.tagName === "INPUT" ? "field" : element?.textContent?.trim() ?? "";
  });

Deno.test({
  name:
    "browser: the sidebar search finds a workspace and a thread by a typo, by keyboard, only the user's own",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const ada = await addUser(app, admin, "ada", "default");
    const bob = await addUser(app, admin, "bob", "default");
    const astronomy = await newWorkspace(app, admin, "Astronomy Notes");
    // Not Ada's: an admin's workspace she is no member of.
    await newWorkspace(app, admin, "Astronomy Secrets");
    await newWorkspace(app, admin, "Recipes");
    const members = await app.json(`/api/admin/workspaces/${astronomy.id}/update-users`, {
      ...bearer(admin.token),
      json: { userIds: [ada.user.id, bob.user.id] },
    });
    assert.equal(members.status, 200, JSON.stringify(members.body));
    const adas = await newThread(app, ada, astronomy.slug, "Telescope maintenance");
    await newThread(app, bob, astronomy.slug, "Telescope budget");

    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      page.setDefaultTimeout(10_000);
      const errors = watchErrors(page);
      await signIn(page, url, ada);
      await page.goto(`${url}/workspace/${astronomy.slug}`);
      await hydrated(page);
      const sidebar = page.locator("nav.sidebar");
      // The field is the first control under the top bar.
      assert.equal(
        await sidebar.locator(".sidebar-content").locator("input, button, a[href]").first().getAttribute(
          "id",
        ),
        "sidebar-search-field",
      );

      // Two letters ask for more, and nothing is asked of the server.
      const asked: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/api/workspace/search")) asked.push(request.postDataJSON().searchTerm);
      });
      await field(page).fill("as");
      await results(page).getByText("Type at least 3 letters to search.").waitFor();
      assert.equal(await results(page).getByRole("link").count(), 0);

      // A typo finds the workspace she belongs to, not the admin's other one.
      await search(page, "astronmy notes");
      assert.deepEqual(await resultNames(page, "Workspaces"), ["Astronomy Notes"]);
      await search(page, "astronomy");
      assert.deepEqual(await resultNames(page, "Workspaces"), ["Astronomy Notes"], "no one else's workspace");
      // The field asked for the settled terms only, never for the two letters.
      assert.deepEqual(asked, ["astronmy notes", "astronomy"]);

      // Her own thread, by a typo; Bob's thread of the same workspace stays his.
      await search(page, "telescope");
      assert.deepEqual(await resultNames(page, "Threads"), ["Telescope maintenance in Astronomy Notes"]);
      await search(page, "telescop maintenanse");
      assert.deepEqual(await resultNames(page, "Threads"), ["Telescope maintenance in Astronomy Notes"]);
      assert.deepEqual(await resultNames(page, "Workspaces"), []);
      await results(page).getByText("1 result", { exact: true }).waitFor();

      // Nothing found says so.
      await search(page, "zebra crossing");
      await results(page).getByText("No results", { exact: true }).waitFor();
      assert.equal(await results(page).getByRole("link").count(), 0);

      // Escape clears the field and the results.
      await field(page).press("Escape");
      assert.equal(await field(page).inputValue(), "");
      await results(page).waitFor({ state: "detached" });

      // Arrow keys walk from the field through the results and back; Escape from a result clears too.
      await search(page, "astronomy notes");
      await field(page).focus();
      await page.keyboard.press("ArrowDown");
      assert.equal(await focusedName(page), "Astronomy Notes");
      await page.keyboard.press("ArrowDown");
      assert.equal(await focusedName(page), "Astronomy Notes", "the last result holds");
      await page.keyboard.press("ArrowUp");
      assert.equal(await focusedName(page), "field");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Escape");
      assert.equal(await focusedName(page), "field", "Escape brings focus back to the field");
      assert.equal(await field(page).inputValue(), "");

      // Enter on a result follows it: the thread's chat opens.
      await search(page, "telescop maintenanse");
      await field(page).focus();
      await page.keyboard.press("ArrowDown");
      assert.equal(await focusedName(page), "Telescope maintenance in Astronomy Notes");
      await Promise.all([
        page.waitForURL(`${url}/workspace/${astronomy.slug}/t/${adas.slug}`),
        page.keyboard.press("Enter"),
      ]);
      await hydrated(page);
      await page.getByRole("list", { name: "Threads of Astronomy Notes" })
        .getByRole("link", { name: "Telescope maintenance", exact: true }).and(
          page.locator('[aria-current="page"]'),
        )
        .waitFor();

      // Enter in the field follows the first result of the term as typed.
      await search(page, "astronmy notes");
      await Promise.all([
        page.waitForURL(`${url}/workspace/${astronomy.slug}`),
        field(page).press("Enter"),
      ]);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

const PHONE = { width: 390, height: 844 };

type Box = { x: number; y: number; width: number; height: number };
async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  assert.ok(found, "the element is laid out");
  return found;
}

Deno.test({
  name:
    "browser: the sidebar search works in the phone's drawer, light and dark, and taps through to a thread",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const workspace = await newWorkspace(
      app,
      null,
      "Field Research and Documentation for the Spring Expedition to the Northern Coast",
    );
    await newWorkspace(app, null, "Recipes");
    const thread = await newThread(
      app,
      null,
      workspace.slug,
      "Birdwatching checklist for the coastal marshes and the estuary at dawn, with tide tables",
    );
    const url = app.listen();
    await Deno.mkdir(SCREENSHOTS, { recursive: true });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: PHONE, colorScheme: "light", hasTouch: true });
      page.setDefaultTimeout(10_000);
      const errors = watchErrors(page);
      await page.goto(`${url}/`);
      await hydrated(page);
      // Closed drawer: the field is out of sight with the rest of the sidebar.
      assert.equal(await field(page).isVisible(), false);
      await page.getByRole("button", { name: "Open the menu" }).tap();
      await field(page).waitFor();
      const sidebar = await box(page.locator("nav.sidebar"));
      const fieldBox = await box(field(page));
      assert.ok(fieldBox.height >= 44, `a finger-sized field: ${fieldBox.height}px`);
      assert.ok(fieldBox.x >= sidebar.x && fieldBox.x + fieldBox.width <= sidebar.x + sidebar.width + 0.5);

      // Names this long are found by a part of them.
      await search(page, "coastal marshes");
      const link = results(page).getByRole("link", { name: /^Birdwatching checklist/ });
      await link.waitFor();
      // The long names are cut inside the drawer; nothing scrolls sideways.
      const linkBox = await box(link);
      assert.ok(linkBox.x + linkBox.width <= sidebar.x + sidebar.width + 0.5, "the result fits the drawer");
      const overflow = await page.evaluate(() =>
        [document.documentElement, document.querySelector(".sidebar-content")!].map((element) =>
          element.scrollWidth - element.clientWidth
        )
      );
      assert.deepEqual(overflow, [0, 0], "nothing is wider than the screen");
      // The field and the results take the theme's colours.
      const colours: Record<string, string[]> = {};
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        colours[scheme] = await page.evaluate(() =>
          [".sidebar-search-field", ".sidebar-search-link", ".sidebar-search-where"].flatMap((selector) => {
            const style = getComputedStyle(document.querySelector(selector)!);
            return [style.color, style.backgroundColor];
          })
        );
        const path = fileURLToPath(new URL(`sidebar-search-phone-${scheme}.png`, SCREENSHOTS));
        await page.screenshot({ path });
      }
      const [fieldText, fieldBackground, linkText] = [0, 1, 2].map((index) => [
        colours.light[index],
        colours.dark[index],
      ]);
      for (
        const [what, [light, dark]] of [["field text", fieldText], ["field", fieldBackground], [
          "result text",
          linkText,
        ]] as const
      ) {
        assert.notEqual(light, dark, `the ${what} colour follows light and dark`);
      }
      await Promise.all([page.waitForURL(`${url}/workspace/${workspace.slug}/t/${thread.slug}`), link.tap()]);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
