import assert from "node:assert/strict";
import { embedChats, embedConfigs } from "../../db/schema.ts";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

Deno.test({
  name:
    "browser: a manager creates a chat widget, switches it off, copies its script tag, edits and deletes it; the widget chats are listed, deleted and exported",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const manager = await addUser(app, admin, "morgan", "manager");
    const dora = await addUser(app, admin, "dora", "default");
    const made = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
      ...bearer(admin.token),
      json: { name: "Shop help" },
    });
    assert.equal(made.status, 200);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, url, manager);
      await page.goto(`${url}/settings/embed-config`);
      await hydrated(page);
      const nav = page.locator(".settings-nav");
      assert.equal(await nav.getByRole("link", { name: "Chat Embed Widgets" }).isVisible(), true);
      assert.equal(await nav.getByRole("link", { name: "Embed Chat History" }).isVisible(), true);
      await page.getByText("No chat widgets yet.").waitFor();

      await page.getByRole("button", { name: "New chat widget" }).click();
      const dialog = page.getByRole("dialog", { name: "New chat widget" });
      await dialog.getByLabel("Allowed sites").fill("shop.example\nhttps://bad.example/path");
      await dialog.getByLabel("Chats per visitor").fill("5");
      await dialog.getByRole("button", { name: "Create widget" }).click();
      await dialog.getByText('"https://bad.example/path" is not a web site\'s address').waitFor();
      await dialog.getByLabel("Allowed sites").fill("shop.example\nhttp://localhost:8080");
      await dialog.getByText("Chat", { exact: true }).click();
      await dialog.getByRole("checkbox", { name: /^System prompt/ }).check();
      await page.screenshot({ path: new URL("embeds-form.png", SCREENSHOTS).pathname });
      await dialog.getByRole("button", { name: "Create widget" }).click();
      await dialog.waitFor({ state: "hidden" });

      const row = page.locator(".embeds-table tbody tr");
      await row.waitFor();
      assert.match(await row.innerText(), /Shop help[\s\S]*https:\/\/shop\.example, http:\/\/localhost:8080/);
      const [stored] = await app.deps.db.select().from(embedConfigs);
      assert.deepEqual(stored.allowlistDomains, ["https://shop.example", "http://localhost:8080"]);
      assert.equal(stored.chatMode, "chat");
      assert.equal(stored.maxChatsPerSession, 5);
      assert.equal(stored.allowPromptOverride, true);
      assert.equal(stored.enabled, true);

      const toggle = row.getByRole("switch");
      await toggle.click();
      await page.getByText("The widget is off: it no longer answers.").waitFor();
      assert.equal((await app.deps.db.select().from(embedConfigs))[0].enabled, false);

      await row.getByRole("button", { name: /^Show the script tag/ }).click();
      const code = page.getByRole("dialog", { name: "Add the widget to your web site" });
      const snippet = await code.locator("#embed-snippet").inputValue();
      assert.equal(
        snippet,
        `<script data-embed-id="${stored.uuid}" data-base-api-url="${url}/api/embed" src="${url}/embed/lectern-chat-widget.min.js"></script>`,
      );
      await code.getByText("This widget is off").waitFor();
      await code.getByRole("button", { name: "Done" }).click();

      await row.getByRole("button", { name: /^Edit widget/ }).click();
      const edit = page.getByRole("dialog", { name: `Edit chat widget #${stored.id}` });
      assert.equal(await edit.getByLabel("Chats per visitor").inputValue(), "5");
      await edit.getByLabel("Chats per day").fill("100");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await edit.waitFor({ state: "hidden" });
      assert.equal((await app.deps.db.select().from(embedConfigs))[0].maxChatsPerDay, 100);

      // On a phone the table becomes cards and nothing overflows the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= globalThis.innerWidth),
        "no horizontal scrolling at phone width",
      );
      await page.screenshot({ path: new URL("embeds-phone.png", SCREENSHOTS).pathname, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });

      // The widget chats: listed newest first, one deleted, the rest exported.
      const answer = (text: string) => JSON.stringify({ text, sources: [], type: "chat" });
      await app.deps.db.insert(embedChats).values([
        { embedId: stored.id, sessionId: "s-1", prompt: "Open on Sunday?", response: answer("No, closed.") },
        {
          embedId: stored.id,
          sessionId: "s-2",
          prompt: "Do you deliver?",
          response: answer("Yes, within the city."),
          connectionInformation: JSON.stringify({ host: "https://shop.example", ip: "127.0.0.1" }),
        },
      ]);
      await nav.getByRole("link", { name: "Embed Chat History" }).click();
      await hydrated(page);
      const chats = page.locator(".embed-chats-table tbody tr");
      await chats.first().waitFor();
      assert.equal(await chats.count(), 2);
      assert.match(
        await chats.first().innerText(),
        /Shop help[\s\S]*https:\/\/shop\.example[\s\S]*Do you deliver\?[\s\S]*Yes, within the city\./,
      );
      await page.getByLabel("Export format").selectOption("csv");
      const exported = page.waitForResponse((response) =>
        response.url().includes("/api/system/export-chats")
      );
      const downloaded = page.waitForEvent("download", { timeout: 10_000 }).catch(() => null);
      await page.getByRole("button", { name: "Export" }).click();
      const response = await exported;
      assert.equal(new URL(response.url()).search, "?type=csv&chatType=embed");
      // A manager exports the widget chats (the workspace chats' export is the admins').
      assert.equal(response.status(), 200);
      const download = await downloaded;
      assert.ok(download, "a file was downloaded");
      const file = await Deno.readTextFile((await download.path())!);
      assert.match(file, /^id,workspace,prompt,response,sent_at\n/);
      assert.match(file, /"Do you deliver\?"/);

      await chats.first().getByRole("button", { name: /^Delete chat/ }).click();
      const confirmChat = page.getByRole("dialog", { name: "Delete this chat?" });
      await confirmChat.getByRole("button", { name: "Delete chat" }).click();
      await page.getByText("The chat was deleted.").waitFor();
      await chats.filter({ hasText: "Do you deliver?" }).waitFor({ state: "detached" });
      assert.equal(await chats.count(), 1);
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= globalThis.innerWidth));
      await page.screenshot({ path: new URL("embed-chats-phone.png", SCREENSHOTS).pathname, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Deleting the widget takes its chats with it.
      await page.goto(`${url}/settings/embed-config`);
      await hydrated(page);
      await page.locator(".embeds-table tbody tr").getByRole("button", { name: /^Delete widget/ }).click();
      const confirm = page.getByRole("dialog", { name: "Delete this chat widget?" });
      await confirm.getByRole("button", { name: "Delete widget" }).click();
      await page.getByText("No chat widgets yet.").waitFor();
      assert.equal((await app.deps.db.select().from(embedChats)).length, 0);
      // Until the export route is merged, its 501 shows as a failed load in the console.
      assert.deepEqual(errors.filter((error) => !/status of 501/.test(error)), [], "console errors");
      await context.close();

      // A default user is not offered the pages, and the page guard turns them away.
      const doraContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const doraPage = await doraContext.newPage();
      await signIn(doraPage, url, dora);
      await doraPage.goto(`${url}/settings/embed-config`);
      await hydrated(doraPage);
      await doraPage.waitForLoadState("networkidle");
      assert.equal(await doraPage.locator(".embeds-table, button:has-text('New chat widget')").count(), 0);
      await doraContext.close();
    } finally {
      await browser.close();
    }
  },
});
