import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { workspaceChats, workspaces } from "../../db/schema.ts";
import { addUser, multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp, createTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

const LONG_PROMPT = "Where is the harbour office, and when does the reading room open on a Sunday?\n" +
  "Please answer with the opening hours of every day.";

/** Downloads what choosing `format` in the export menu saves, as its file name and text. */
async function exported(page: Page, format: string): Promise<{ name: string; text: string }> {
  await page.getByRole("button", { name: "Export" }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("group", { name: "Export formats" }).getByRole("button", { name: format, exact: true })
      .click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await Deno.readTextFile(path) };
}

Deno.test({
  name:
    "browser: an admin pages through every workspace chat, reads a whole prompt, deletes one and all after confirming, and downloads exports",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    const admin = await multiUserInstance(app);
    const manager = await addUser(app, admin, "morgan", "manager");
    const db = app.deps.db;
    const [harbour] = await db.insert(workspaces).values({ name: "Harbour", slug: "harbour" }).returning();
    const [library] = await db.insert(workspaces).values({ name: "Library", slug: "library" }).returning();
    const answer = (text: string) => JSON.stringify({ text, sources: [], type: "chat", attachments: [] });
    await db.insert(workspaceChats).values(Array.from({ length: 23 }, (_, index) => ({
      workspaceId: index % 2 === 0 ? harbour.id : library.id,
      prompt: index === 22 ? LONG_PROMPT : `question ${index}`,
      response: answer(`answer ${index}`),
      userId: admin.user.id,
    })));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      // A manager is sent home by the page guard (the route table: admins only).
      const managerPage = await browser.newPage();
      await signIn(managerPage, url, manager);
      await managerPage.goto(`${url}/settings/workspace-chats`);
      await managerPage.waitForURL(`${url}/`);
      await managerPage.close();

      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      await page.goto(`${url}/settings/workspace-chats`);
      await hydrated(page);
      const menuLink = page.locator(".settings-nav").getByRole("link", { name: "Workspace Chats" });
      assert.equal(
        await menuLink.getAttribute("aria-current"),
        "page",
        "listed in the menu, as the current page",
      );
      await page.getByRole("heading", { name: "23 chats" }).waitFor();
      const rows = page.locator(".workspace-chats-table tbody tr");
      assert.equal(await rows.count(), 20, "20 a page");
      const first = await rows.first().locator("td").allInnerTexts();
      assert.deepEqual(first.slice(0, 3), ["23", "admin", "Harbour"]);
      assert.equal(first[4], "answer 22");
      assert.ok(first[3].endsWith("…") && first[3].length === 40, `the long prompt is cut: ${first[3]}`);
      await page.screenshot({ path: new URL("workspace-chats.png", SCREENSHOTS).pathname });

      // The whole prompt on demand.
      await page.getByRole("button", { name: "Show the whole prompt of chat 23" }).click();
      const viewer = page.getByRole("dialog", { name: "Prompt of chat 23" });
      assert.equal(await viewer.locator("pre").textContent(), LONG_PROMPT);
      await viewer.getByRole("button", { name: "Close" }).click();
      await viewer.waitFor({ state: "hidden" });

      // Paging by offset, kept in the address.
      await page.getByRole("button", { name: "Next Page" }).click();
      await page.getByText("Page 2 of 2").waitFor();
      assert.equal(new URL(page.url()).search, "?offset=1");
      // The page's label moves before its chats arrive: wait for the last chat of page 2.
      await rows.locator("td:first-child", { hasText: /^1$/ }).waitFor();
      assert.deepEqual(await rows.locator("td:first-child").allInnerTexts(), ["3", "2", "1"]);
      assert.equal(await page.getByRole("button", { name: "Next Page" }).isDisabled(), true);
      await page.getByRole("button", { name: "Previous Page" }).click();
      await page.getByText("Page 1 of 2").waitFor();
      assert.equal(new URL(page.url()).search, "");

      // Deleting one asks first; Cancel keeps it.
      await page.getByRole("button", { name: "Delete chat 22" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete this chat?" });
      await confirm.getByText("This action is irreversible.").waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden" });
      assert.equal((await db.select().from(workspaceChats)).length, 23, "Cancel deletes nothing");
      await page.getByRole("button", { name: "Delete chat 22" }).click();
      await confirm.getByRole("button", { name: "Delete chat", exact: true }).click();
      await page.getByRole("heading", { name: "22 chats" }).waitFor();
      await page.getByText("Chat deleted.").waitFor();
      assert.equal(await page.getByRole("button", { name: "Delete chat 22" }).count(), 0);
      const left = await db.select({ id: workspaceChats.id }).from(workspaceChats);
      assert.equal(left.length, 22);
      assert.ok(!left.some((row) => row.id === 22));
      assert.equal(await rows.count(), 20, "the page filled up again from the next one");

      // Exports download the file of each format.
      const jsonl = await exported(page, "JSONL");
      assert.match(jsonl.name, /^lectern-chats-\d{4}-\d{2}-\d{2}-lines\.jsonl$/);
      const lines = jsonl.text.split("\n").map((line) => JSON.parse(line));
      assert.equal(lines.length, 2, "one line per workspace");
      assert.equal(lines[0].messages[1].content[0].text, "question 0");
      await page.getByText("Chats exported successfully as JSONL.").waitFor();
      const csv = await exported(page, "CSV");
      assert.match(csv.name, /^lectern-chats-\d{4}-\d{2}-\d{2}\.csv$/);
      assert.equal(csv.text.split("\n").length, 23, "a header and the 22 chats");
      const alpaca = await exported(page, "JSON (Alpaca)");
      assert.match(alpaca.name, /-alpaca\.json$/);
      assert.equal(JSON.parse(alpaca.text).length, 22);

      // Clearing every chat asks first, naming how many.
      await page.getByRole("button", { name: "Clear Chats" }).click();
      const clear = page.getByRole("dialog", { name: "Clear every chat?" });
      await clear.getByText("All 22 chats of every workspace will be deleted.").waitFor();
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: new URL("workspace-chats-clear-dark.png", SCREENSHOTS).pathname });
      await page.emulateMedia({ colorScheme: "light" });
      await clear.getByRole("button", { name: "Clear all chats" }).click();
      await page.getByRole("heading", { name: "0 chats" }).waitFor();
      await page.getByText("No chats yet.").waitFor();
      assert.equal((await db.select().from(workspaceChats)).length, 0);
      assert.equal(await page.getByRole("button", { name: "Clear Chats" }).count(), 0);
      const empty = await exported(page, "CSV");
      assert.equal(empty.text, "id,workspace,prompt,response,sent_at,username,rating", "an empty file");
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: on a phone each workspace chat is a card that fits the screen, with its export menu",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const db = app.deps.db;
    const [harbour] = await db.insert(workspaces).values({ name: "Harbour", slug: "harbour" }).returning();
    await db.insert(workspaceChats).values(Array.from({ length: 3 }, (_, index) => ({
      workspaceId: harbour.id,
      prompt: index === 2 ? LONG_PROMPT : `question ${index}`,
      response: JSON.stringify({ text: `answer ${index}` }),
    })));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      for (const colorScheme of ["light", "dark"] as const) {
        const page = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme });
        const errors = watchErrors(page);
        await page.goto(`${url}/settings/workspace-chats`);
        await hydrated(page);
        await page.getByRole("heading", { name: "3 chats" }).waitFor();
        // Single-user mode: the owner's chats are "unknown user", as the reference names them.
        await page.locator(".workspace-chats-table td", { hasText: "unknown user" }).first().waitFor();
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        assert.ok(widths.scroll <= widths.client, `no sideways scrolling: ${JSON.stringify(widths)}`);
        const card = await page.locator(".workspace-chats-table tbody tr").first().boundingBox();
        assert.ok(card && card.width <= 390, "a row is a card within the screen");
        await page.getByRole("button", { name: "Export" }).click();
        const menu = await page.getByRole("group", { name: "Export formats" }).boundingBox();
        assert.ok(
          menu && menu.x >= 0 && menu.x + menu.width <= 390,
          `the menu fits: ${JSON.stringify(menu)}`,
        );
        await page.screenshot({
          path: new URL(`workspace-chats-phone-${colorScheme}.png`, SCREENSHOTS).pathname,
          fullPage: true,
        });
        assert.deepEqual(errors, []);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});
