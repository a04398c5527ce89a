import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { bearer, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { configuredTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import {
  browserTestOptions,
  hydrated,
  launchChromium,
  pageErrors,
  SCREENSHOTS,
  watchErrors,
} from "./chromium.ts";
import { signIn } from "./sessions.ts";

const BRIEF = "Be brief and cite the document you answer from.";
/** Longer than the list shows at first: five lines. */
const RULES = [
  "You are the Atlas archive's assistant.",
  "Answer from the documents of this workspace only.",
  "Quote the passage you rely on.",
  "Say so when the documents do not answer the question.",
  "Never guess a date or a name.",
].join("\n");
const LIBRARIAN = "Answer as a librarian would.";

type Entry = { id: number; prompt: string; user: { username: string } | null };

function client(app: TestApp, session: Session | null) {
  const auth = session ? bearer(session.token) : {};
  return {
    history: async (slug: string) =>
      (await app.json<{ history: Entry[] }>(`/api/workspace/${slug}/prompt-history`, auth)).body.history,
    stored: async (slug: string) =>
      (await app.json<{ workspace: { openAiPrompt: string | null } }>(`/api/workspace/${slug}`, auth)).body
        .workspace.openAiPrompt,
    setPrompt: async (slug: string, openAiPrompt: string | null) => {
      const saved = await app.json(`/api/workspace/${slug}/update`, { ...auth, json: { openAiPrompt } });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    },
  };
}

async function openChatTab(page: Page, url: string, slug: string) {
  await page.goto(`${url}/workspace/${slug}/settings/chat-settings`);
  await hydrated(page);
}

/** Saves the chat form and waits for the stored row to come back into it. */
async function save(page: Page, slug: string) {
  const answer = page.waitForResponse((response) => response.url().endsWith(`/api/workspace/${slug}/update`));
  await page.getByRole("button", { name: "Save", exact: true }).click();
  assert.equal((await answer).status(), 200);
  await page.getByRole("button", { name: "Save", exact: true }).waitFor();
}

const toast = (page: Page, text: string) =>
  page.locator(".Toastify").getByText(text, { exact: true }).first();

Deno.test({
  name:
    "browser: prompt history lists replaced prompts; Use this prompt fills the field; delete and clear ask first",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const api = client(app, admin);
    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      ...bearer(admin.token),
      json: { name: "Atlas" },
    });
    const slug = created.body.workspace.slug;
    await api.setPrompt(slug, BRIEF);
    await api.setPrompt(slug, RULES);
    const url = app.listen();
    await Deno.mkdir(SCREENSHOTS, { recursive: true });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(10_000);
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      await openChatTab(page, url, slug);
      const prompt = page.getByLabel("Prompt", { exact: true });
      const history = page.getByRole("group", { name: "Prompt history" });
      const entries = history.getByRole("listitem");
      const entryOf = (text: string) => entries.filter({ hasText: text });

      // Only the replaced prompt is there so far, with who replaced it.
      await entryOf(BRIEF).waitFor();
      assert.equal(await prompt.inputValue(), RULES);
      assert.equal(await entries.count(), 1);
      assert.match(await entryOf(BRIEF).getAttribute("aria-label") ?? "", /^Prompt replaced .+ by admin$/);
      assert.match(await entryOf(BRIEF).locator(".ws-prompt-history-meta").innerText(), / · admin$/);

      // A save through the form replaces the rules: they come first, clipped to three lines, "Show all" opens them.
      await prompt.fill(LIBRARIAN);
      await save(page, slug);
      const rules = entryOf(RULES.split("\n")[0]);
      await rules.waitFor();
      assert.equal(await entries.count(), 2);
      assert.match(
        await entries.first().innerText(),
        /You are the Atlas archive's assistant/,
        "newest first",
      );
      const text = rules.locator(".ws-prompt-history-prompt");
      assert.equal(await text.innerText(), `${RULES.split("\n").slice(0, 3).join("\n")}\n…`);
      const showAll = rules.getByRole("button", { name: "Show all" });
      assert.equal(await showAll.getAttribute("aria-expanded"), "false");
      await showAll.click();
      assert.equal(await text.innerText(), RULES);
      await rules.getByRole("button", { name: "Show less" }).click();
      assert.ok((await text.innerText()).endsWith("…"));
      assert.equal(await entryOf(BRIEF).getByRole("button", { name: "Show all" }).count(), 0, "short: whole");
      await history.screenshot({ path: fileURLToPath(new URL("prompt-history.png", SCREENSHOTS)) });
      // On a phone, dark: the entries and their buttons fit the screen.
      await page.setViewportSize({ width: 375, height: 812 });
      await page.emulateMedia({ colorScheme: "dark" });
      await history.scrollIntoViewIfNeeded();
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0);
      for (const button of await history.getByRole("button").all()) {
        const found = (await button.boundingBox())!;
        assert.ok(
          found.x >= 0 && found.x + found.width <= 375,
          `${await button.textContent()} fits the phone`,
        );
      }
      await history.screenshot({
        path: fileURLToPath(new URL("prompt-history-phone-dark.png", SCREENSHOTS)),
      });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.emulateMedia({ colorScheme: "light" });

      // "Use this prompt" puts it in the field, which the person then saves.
      await entryOf(BRIEF).getByRole("button", { name: "Use this prompt" }).click();
      assert.equal(await prompt.inputValue(), BRIEF);
      assert.equal(
        await prompt.evaluate((field) => field === document.activeElement),
        true,
        "the field has focus",
      );
      await toast(page, "The earlier prompt is in the Prompt field. Save to use it.").waitFor();
      assert.equal(await api.stored(slug), LIBRARIAN, "nothing is saved until Save");
      await save(page, slug);
      assert.equal(await api.stored(slug), BRIEF);
      await entryOf(LIBRARIAN).waitFor();
      assert.deepEqual((await api.history(slug)).map((entry) => entry.prompt), [LIBRARIAN, RULES, BRIEF]);

      // Delete asks first: Cancel keeps the entry, Delete removes it from the server.
      const dialog = page.getByRole("dialog");
      await entryOf(LIBRARIAN).getByRole("button", { name: "Delete" }).click();
      await dialog.getByRole("heading", { name: "Delete this prompt?" }).waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert.equal((await api.history(slug)).length, 3, "cancelled: nothing deleted");
      await entryOf(LIBRARIAN).getByRole("button", { name: "Delete" }).click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await toast(page, "Prompt deleted from the history.").waitFor();
      await entryOf(LIBRARIAN).waitFor({ state: "detached" });
      assert.deepEqual((await api.history(slug)).map((entry) => entry.prompt), [RULES, BRIEF]);

      // An entry someone else deleted meanwhile: the server's sentence, and the list shows what is left.
      const [gone] = await api.history(slug);
      const removed = await app.json(`/api/workspace/prompt-history/${gone.id}`, {
        ...bearer(admin.token),
        method: "DELETE",
      });
      assert.equal(removed.status, 200);
      await rules.getByRole("button", { name: "Delete" }).click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await toast(page, "Could not delete the prompt: That prompt history entry does not exist.").waitFor();
      await rules.waitFor({ state: "detached" });
      assert.equal(await entries.count(), 1);

      // Clear history asks first, then empties it.
      await history.getByRole("button", { name: "Clear history" }).click();
      await dialog.getByRole("heading", { name: "Clear the prompt history?" }).waitFor();
      await dialog.getByRole("button", { name: "Clear history" }).click();
      await toast(page, "Prompt history cleared.").waitFor();
      await history.getByText("No earlier prompts yet. When a prompt is replaced, it is kept here.")
        .waitFor();
      assert.equal(await history.getByRole("button", { name: "Clear history" }).count(), 0);
      assert.deepEqual(await api.history(slug), []);
      assert.equal(await api.stored(slug), BRIEF, "clearing the history leaves the prompt");
      // Only the refused delete was expected to fail (its 404).
      assert.deepEqual(pageErrors(errors), []);
      assert.equal(errors.length, 1, errors.join("\n"));
    } finally {
      await browser.close();
    }
  },
});

const INSTANCE_PROMPT = "You are the librarian of this instance. Answer from the documents only.";

Deno.test({
  name: "browser: the chat settings show the instance's default prompt; saving it untouched adds no history",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const set = await app.json("/api/system/default-system-prompt", {
      json: { defaultSystemPrompt: INSTANCE_PROMPT },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      json: { name: "Atlas" },
    });
    const slug = created.body.workspace.slug;
    const api = client(app, null);
    assert.equal(
      await api.stored(slug),
      INSTANCE_PROMPT,
      "a new workspace starts with the instance's prompt",
    );
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(10_000);
      const errors = watchErrors(page);
      await openChatTab(page, url, slug);
      const prompt = page.getByLabel("Prompt", { exact: true });
      const history = page.getByRole("group", { name: "Prompt history" });
      await history.getByText("No earlier prompts yet. When a prompt is replaced, it is kept here.")
        .waitFor();
      // The instance's prompt, not the built-in one, is what an empty field means.
      await page.waitForFunction(
        (expected) =>
          document.querySelector<HTMLTextAreaElement>("#ws-chat-prompt")?.placeholder === expected,
        INSTANCE_PROMPT,
      );
      assert.equal(await prompt.inputValue(), "", "the instance's prompt is not the workspace's own");
      const hintId = await prompt.getAttribute("aria-describedby");
      const hint = await page.locator(`[id="${hintId}"]`).textContent();
      assert.equal(
        hint,
        "Instructions for the assistant in this workspace. Leave it empty to use this instance's default, shown in the box.",
      );

      await save(page, slug);
      assert.equal(await api.stored(slug), null, "saved untouched: the instance's default applies");
      assert.deepEqual(await api.history(slug), [], "the instance's prompt was no prompt of its own to keep");

      // A prompt of its own replaced later is kept, without an author in single-user mode.
      await prompt.fill(LIBRARIAN);
      await save(page, slug);
      await prompt.fill("");
      await save(page, slug);
      const entry = history.getByRole("listitem").filter({ hasText: LIBRARIAN });
      await entry.waitFor();
      assert.match(await entry.locator(".ws-prompt-history-meta").innerText(), / · no account$/);
      // Without accounts the visitor may delete.
      await entry.getByRole("button", { name: "Delete" }).waitFor();

      // Back to the built-in prompt: the hint says so again.
      await app.json("/api/system/default-system-prompt", { json: { defaultSystemPrompt: "" } });
      const defaults = page.waitForResponse((response) =>
        response.url().endsWith("/api/system/default-system-prompt")
      );
      await openChatTab(page, url, slug);
      assert.equal((await defaults).status(), 200);
      // Two frames: React has taken the answer in.
      for (let frame = 0; frame < 2; frame++) {
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      }
      assert.equal(await prompt.getAttribute("placeholder"), DEFAULT_SYSTEM_PROMPT);
      assert.equal(
        await page.locator(`[id="${hintId}"]`).textContent(),
        "Instructions for the assistant in this workspace. Leave it empty to use the default shown in the box.",
      );
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
