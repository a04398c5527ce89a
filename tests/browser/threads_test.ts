import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { createTestApp, genericOpenAiSettings, type TestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

const RENAME_PROMPT = "What would you like to rename this thread to?";
const DELETE_CONFIRM =
  "Are you sure you want to delete this thread? All of its chats will be deleted. You cannot undo this.";
const THREAD_ROUTE = /\/workspace\/atlas\/t\/([0-9a-f-]{36})$/;

/** A configured instance (an LLM at the fake server, lancedb) with the workspace Atlas. */
async function atlasInstance(baseURL: string): Promise<TestApp> {
  const app = await createTestApp();
  // An open instance without a language model or vector database sends its pages to onboarding.
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(baseURL) });
  await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  return app;
}

type ThreadRow = { slug: string; name: string };

async function serverThreads(app: TestApp): Promise<ThreadRow[]> {
  const { body } = await app.json<{ threads: ThreadRow[] }>("/api/workspace/atlas/threads");
  return body.threads;
}

async function namedThread(app: TestApp, name: string): Promise<ThreadRow> {
  const created = await app.json<{ thread: ThreadRow }>("/api/workspace/atlas/thread/new", {
    method: "POST",
  });
  const renamed = await app.json<{ thread: ThreadRow }>(
    `/api/workspace/atlas/thread/${created.body.thread.slug}/update`,
    { json: { name } },
  );
  return renamed.body.thread;
}

/** Records the browser's own prompt, confirm and alert boxes, which the app no longer uses, and dismisses them. */
function browserDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", async (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return seen;
}

/** The accessible name of the focused element. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? null);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test({
  name: "browser: the sidebar lists, creates, renames and deletes a workspace's threads",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await atlasInstance(llm.baseURL);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors = watchErrors(page);
      const nativeDialogs = browserDialogs(page);
      const updates: string[] = [];
      page.on("request", (request) => {
        if (/\/thread\/[^/]+\/update$/.test(request.url())) updates.push(request.url());
      });
      const sidebar = page.locator("nav.sidebar");
      const list = sidebar.getByRole("list", { name: "Threads of Atlas" });
      const link = (name: string) => list.getByRole("link", { name, exact: true });
      const toastText = (text: string | RegExp) => page.locator(".Toastify").getByText(text);

      // While the list loads: 'loading threads....'.
      let releaseList = () => {};
      const listHeld = new Promise<void>((resolve) => releaseList = resolve);
      await page.route("**/api/workspace/atlas/threads", async (route) => {
        await listHeld;
        await route.continue();
      });
      await page.goto(`${url}/workspace/atlas`);
      await hydrated(page);
      await sidebar.getByText("loading threads....", { exact: true }).waitFor();
      releaseList();
      await link("default").waitFor();
      assert.equal(
        await link("default").getAttribute("aria-current"),
        "page",
        "the default thread is current",
      );
      assert.equal(await link("default").getAttribute("href"), "/workspace/atlas");

      // New Thread: 'Starting Thread...' while it works, then the new thread's route.
      let releaseNew = () => {};
      const newHeld = new Promise<void>((resolve) => releaseNew = resolve);
      await page.route("**/api/workspace/atlas/thread/new", async (route) => {
        await newHeld;
        await route.continue();
      });
      await sidebar.getByRole("button", { name: "New Thread" }).click();
      const starting = sidebar.getByRole("button", { name: "Starting Thread..." });
      await starting.waitFor();
      assert.equal(await starting.isDisabled(), true);
      releaseNew();
      await page.waitForURL(THREAD_ROUTE);
      await hydrated(page);
      const threadSlug = page.url().match(THREAD_ROUTE)![1];
      assert.deepEqual((await serverThreads(app)).map((thread) => thread.slug), [threadSlug]);
      await link("Thread").waitFor();
      assert.equal(await link("Thread").getAttribute("aria-current"), "page", "the new thread is current");
      assert.equal(await link("Thread").getAttribute("href"), `/workspace/atlas/t/${threadSlug}`);
      assert.equal(await link("default").getAttribute("aria-current"), null);

      // Rename through the in-app dialog; a cancelled, empty or unchanged name does nothing.
      const actions = (name: string) => `Thread actions for ${name}`;
      const openMenu = async (name: string) => {
        await list.getByRole("button", { name: actions(name), exact: true }).click();
      };
      const renameDialog = page.getByRole("dialog", { name: RENAME_PROMPT });
      const nameField = renameDialog.getByRole("textbox", { name: "Thread name" });
      const openRename = async (name: string) => {
        await openMenu(name);
        await list.getByRole("button", { name: "Rename" }).click();
        await renameDialog.waitFor();
        assert.equal(await nameField.inputValue(), name, "the field starts with the thread's name");
      };
      await openRename("Thread");
      await renameDialog.getByRole("button", { name: "Cancel" }).click();
      await renameDialog.waitFor({ state: "hidden" });
      assert.equal(await focusedLabel(page), actions("Thread"), "focus goes back to the ⋯");
      await openRename("Thread");
      await nameField.fill("   ");
      assert.equal(await renameDialog.getByRole("button", { name: "Save" }).isDisabled(), true);
      await nameField.press("Enter");
      await sleep(300);
      assert.equal(await renameDialog.isVisible(), true, "an empty name is not saved and the dialog stays");
      await page.keyboard.press("Escape");
      await renameDialog.waitFor({ state: "hidden" });
      await openRename("Thread");
      await nameField.press("Enter");
      await renameDialog.waitFor({ state: "hidden" });
      await sleep(300);
      assert.deepEqual(updates, [], "no update call for a cancelled, empty or unchanged name");
      await link("Thread").waitFor();

      await openRename("Thread");
      await nameField.fill("Harbour notes");
      await renameDialog.getByRole("button", { name: "Save" }).click();
      await renameDialog.waitFor({ state: "hidden" });
      await link("Harbour notes").waitFor();
      assert.equal((await serverThreads(app))[0].name, "Harbour notes");
      assert.equal(updates.length, 1);

      // A name the server refuses: the spec's toast with the server's message; the dialog stays open with the
      // typed name and the message, to correct it or cancel.
      await openRename("Harbour notes");
      await nameField.fill("x".repeat(300));
      await nameField.press("Enter");
      await toastText(/^Thread could not be updated! \S+/).waitFor();
      await renameDialog.getByRole("alert").getByText(/^Error: \S+/).waitFor();
      assert.equal(await nameField.inputValue(), "x".repeat(300));
      assert.equal(await nameField.getAttribute("aria-invalid"), "true");
      await renameDialog.getByRole("button", { name: "Cancel" }).click();
      await renameDialog.waitFor({ state: "hidden" });
      await link("Harbour notes").waitFor();

      // Another island renames a thread or adds one (after a fork) through window events.
      const forked = await namedThread(app, "Thread");
      await page.evaluate((thread) => {
        dispatchEvent(new CustomEvent("lectern:thread-created", { detail: { thread } }));
      }, forked);
      await link("Thread").waitFor();
      await page.evaluate((slug) => {
        dispatchEvent(new CustomEvent("lectern:thread-renamed", { detail: { slug, name: "Forked chat" } }));
      }, forked.slug);
      await link("Forked chat").waitFor();

      // Names longer than 25 characters are cut, with the full name in the title.
      const longName = "A very long thread name that goes on and on";
      await app.json(`/api/workspace/atlas/thread/${forked.slug}/update`, { json: { name: longName } });
      await page.reload();
      await hydrated(page);
      const long = list.locator(`a[href="/workspace/atlas/t/${forked.slug}"]`);
      await long.waitFor();
      assert.equal(await long.textContent(), "A very long thread name t…");
      assert.equal(await long.getAttribute("title"), longName);

      // Delete through the confirm dialog: cancelled, nothing; accepted, the row reads 'deleted thread', then
      // goes.
      const deleteDialog = page.getByRole("dialog", { name: "Delete Thread" });
      const openDelete = async (name: string) => {
        await openMenu(name);
        await list.getByRole("button", { name: "Delete Thread" }).click();
        await deleteDialog.getByText(DELETE_CONFIRM, { exact: true }).waitFor();
      };
      await openDelete(longName);
      assert.equal(await focusedLabel(page), null, "focus starts on Cancel");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
      await page.keyboard.press("Enter");
      await deleteDialog.waitFor({ state: "hidden" });
      await sleep(200);
      await long.waitFor();
      assert.equal(await focusedLabel(page), actions(longName), "focus goes back to the ⋯");
      await openDelete(longName);
      await deleteDialog.getByRole("button", { name: "Delete Thread" }).click();
      await list.getByText("deleted thread", { exact: true }).waitFor();
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute("href")),
        "/workspace/atlas",
        "with its ⋯ gone, focus goes to the default thread",
      );
      await toastText("Thread deleted successfully!").waitFor();
      await list.getByText("deleted thread").waitFor({ state: "detached" });
      assert.equal(await long.count(), 0);
      assert.deepEqual((await serverThreads(app)).map((thread) => thread.name), ["Harbour notes"]);

      // Deleting the thread on screen goes to the workspace's default thread.
      await openDelete("Harbour notes");
      await deleteDialog.getByRole("button", { name: "Delete Thread" }).click();
      await page.waitForURL(`${url}/workspace/atlas`);
      await hydrated(page);
      await link("default").waitFor();
      assert.deepEqual(await serverThreads(app), []);

      // Multi-delete: hold Control, mark, 'Delete Selected'; releasing the key forgets the marks.
      for (const name of ["Alpha", "Beta", "Gamma"]) await namedThread(app, name);
      await page.reload();
      await hydrated(page);
      await link("Gamma").waitFor();
      const mark = (name: string) => list.getByRole("button", { name: `Mark ${name} for deletion` });
      const deleteSelected = sidebar.getByRole("button", { name: "Delete Selected" });
      assert.equal(await mark("Alpha").count(), 0, "no toggles without the key");

      await page.keyboard.down("Control");
      await mark("Gamma").click();
      assert.equal(await mark("Gamma").getAttribute("aria-pressed"), "true");
      await list.getByText("deleted thread", { exact: true }).waitFor();
      await deleteSelected.waitFor();
      await page.keyboard.up("Control");
      await mark("Gamma").waitFor({ state: "detached" });
      await link("Gamma").waitFor();
      assert.equal(await deleteSelected.count(), 0);
      assert.equal(await list.getByText("deleted thread").count(), 0);

      await page.keyboard.down("Control");
      await mark("Alpha").click();
      await mark("Beta").click();
      assert.equal(await list.getByText("deleted thread", { exact: true }).count(), 2);
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("threads-multi-delete.png", SCREENSHOTS)) });
      await deleteSelected.click();
      await toastText("Thread deleted successfully!").waitFor();
      await page.keyboard.up("Control");
      await link("Gamma").waitFor();
      assert.equal(await link("Alpha").count(), 0);
      assert.equal(await link("Beta").count(), 0);
      assert.deepEqual((await serverThreads(app)).map((thread) => thread.name), ["Gamma"]);

      assert.deepEqual(nativeDialogs, [], "no browser prompt, confirm or alert");
      const unexpected = errors.filter((error) =>
        !/Failed to load resource: the server responded with a status of 400/.test(error)
      );
      assert.deepEqual(unexpected, [], "no console or hydration errors");
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: a new thread takes its first message's name in the sidebar",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await atlasInstance(llm.baseURL);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const list = page.locator("nav.sidebar").getByRole("list", { name: "Threads of Atlas" });
      await page.goto(`${url}/workspace/atlas`);
      await hydrated(page);
      await page.locator("nav.sidebar").getByRole("button", { name: "New Thread" }).click();
      await page.waitForURL(THREAD_ROUTE);
      await hydrated(page);
      await list.getByRole("link", { name: "Thread", exact: true }).waitFor();

      await page.getByLabel("Your message").fill("What is the capital of Freedonia?");
      await page.getByLabel("Your message").press("Enter");
      await page.locator(".message.assistant").getByText(/You asked: What is the capital of Freedonia\?/)
        .waitFor();
      // The server names the thread after its first 22 characters…
      const expected = "What is the capital of…";
      assert.deepEqual((await serverThreads(app)).map((thread) => thread.name), [expected]);
      // …and the chat island's rename event shows it in the sidebar without a reload.
      await list.getByRole("link", { name: expected, exact: true }).waitFor({ timeout: 5000 });
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: on a phone the threads and their menu fit in the folded sidebar",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await atlasInstance(llm.baseURL);
    await namedThread(app, "Pocket notes about the river");
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/atlas`);
      await hydrated(page);
      const sidebar = page.locator("nav.sidebar");
      const list = sidebar.getByRole("list", { name: "Threads of Atlas" });
      await page.getByRole("button", { name: "Open the menu" }).click();
      await list.getByRole("link", { name: "default", exact: true }).waitFor({ state: "visible" });
      await sidebar.getByRole("link", { name: "Atlas", exact: true }).waitFor({ state: "visible" });
      await sidebar.getByRole("link", { name: "Settings of Atlas" }).waitFor({ state: "visible" });
      await sidebar.getByRole("button", { name: "New Workspace" }).waitFor({ state: "visible" });
      await sidebar.getByRole("button", { name: "New Thread" }).waitFor({ state: "visible" });
      await list.getByRole("button", { name: "Thread actions for Pocket notes about the river" }).click();
      const deleteItem = list.getByRole("button", { name: "Delete Thread" });
      await deleteItem.waitFor({ state: "visible" });
      const box = await deleteItem.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 375, "the menu stays on screen");
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.equal(overflow, 0, "no sideways scrolling");
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("threads-phone.png", SCREENSHOTS)) });
      await page.keyboard.press("Escape");
      await deleteItem.waitFor({ state: "detached" });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
