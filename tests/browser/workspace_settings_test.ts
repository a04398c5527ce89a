import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestApp, genericOpenAiSettings, type TestApp } from "../../server/testing/test_app.ts";
import { WORKSPACE_SETTINGS_TABS } from "../../shared/routes.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

const REFUSAL = "Nothing in Atlas answers that.";
const SUGGESTIONS = [
  { heading: "Summarize", message: "Summarize the herons document." },
  { heading: "Explain", message: "Explain what herons eat." },
];
/** Calls the test makes fail on purpose, and the resource errors the console reports for them. */
const EXPECTED_CONSOLE = /Failed to load resource: the server responded with a status of (400|500)/;

/** A configured instance (an LLM that is never called, lancedb) with the workspaces Atlas and Keeper. */
async function instance(): Promise<TestApp> {
  const app = await createTestApp();
  // An open instance without a language model or vector database sends its pages to onboarding.
  await app.json("/api/system/update-env", { json: genericOpenAiSettings("http://127.0.0.1:9/v1") });
  await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  await app.json("/api/workspace/new", { json: { name: "Keeper" } });
  return app;
}

type Row = Record<string, unknown>;
async function stored(app: TestApp, slug = "atlas"): Promise<Row> {
  const { body } = await app.json<{ workspace: Row }>(`/api/workspace/${slug}`);
  return body.workspace;
}

async function open(page: Page, url: string, tab: string) {
  await page.goto(`${url}/workspace/atlas/settings/${tab}`);
  await hydrated(page);
}

Deno.test({
  name: "browser: workspace settings rename, set the chat, suggested messages, threshold, reset and delete",
  ...browserTestOptions,
  async fn() {
    await using app = await instance();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      const toast = (text: string | RegExp) => page.locator(".Toastify").getByText(text).first();
      const section = (name: string) => page.getByRole("region", { name, exact: true });

      // General: rename. An empty name comes back as the server's message naming the field.
      await open(page, url, "general-appearance");
      const name = page.getByLabel("Display name");
      await name.waitFor();
      assert.equal(await name.inputValue(), "Atlas");
      await name.fill("");
      await section("Workspace name").getByRole("button", { name: "Save" }).click();
      await toast(/Workspace name cannot be empty/).waitFor();
      assert.equal((await stored(app)).name, "Atlas");
      await name.fill("Atlas Renamed");
      await section("Workspace name").getByRole("button", { name: "Save" }).click();
      await toast("Workspace settings saved.").waitFor();
      await page.getByRole("heading", { level: 1, name: "Atlas Renamed" }).waitFor();
      assert.equal((await stored(app)).name, "Atlas Renamed");

      // Suggested messages: add three, remove one, save (replaces all).
      const suggested = section("Suggested chat messages");
      await suggested.getByText("No suggested messages yet.").waitFor();
      const save = suggested.getByRole("button", { name: "Save suggested messages" });
      assert.equal(await save.isDisabled(), true, "nothing to save yet");
      for (const entry of [...SUGGESTIONS, { heading: "Drop", message: "This one goes." }]) {
        await suggested.getByRole("button", { name: "Add a suggested message" }).click();
        const item = suggested.getByRole("group").last();
        await item.getByLabel("Heading", { exact: true }).fill(entry.heading);
        await item.getByLabel("Message", { exact: true }).fill(entry.message);
      }
      await suggested.getByRole("button", { name: "Remove suggested message 3" }).click();
      await save.click();
      await toast("Suggested messages saved successfully.").waitFor();
      const { body: saved } = await app.json<{ suggestedMessages: unknown }>(
        "/api/workspace/atlas/suggested-messages",
      );
      assert.deepEqual(saved.suggestedMessages, SUGGESTIONS);
      assert.equal(await save.isDisabled(), true, "saved: nothing left to save");

      // Chat: query mode and its refusal; history over 45 warns; a bad temperature is refused by name.
      await open(page, url, "chat-settings");
      await page.getByRole("radio", { name: /^Query/ }).check();
      await page.getByLabel("Query mode refusal response").fill(REFUSAL);
      const history = page.getByLabel("Chat history");
      assert.equal(await history.inputValue(), "20");
      await history.fill("50");
      await page.getByText(/More than 45 is likely to fail/).waitFor();
      await history.fill("20");
      await page.getByText(/More than 45 is likely to fail/).waitFor({ state: "detached" });
      const temperature = page.getByLabel("LLM temperature");
      await temperature.fill("3");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await toast(/Temperature must be at most 2/).waitFor();
      assert.equal((await stored(app)).chatMode, "chat");
      await temperature.fill("0.2");
      await page.getByLabel("Workspace chat provider").selectOption({ label: "Generic OpenAI" });
      await page.getByLabel("Workspace chat model").fill("other-model");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await toast("Workspace settings saved.").waitFor();
      let row = await stored(app);
      assert.equal(row.chatMode, "query");
      assert.equal(row.queryRefusalResponse, REFUSAL);
      assert.equal(row.openAiTemp, 0.2);
      assert.equal(row.openAiHistory, 20);
      assert.deepEqual([row.chatProvider, row.chatModel], ["generic-openai", "other-model"]);
      // "Use the instance's LLM" clears both.
      await page.getByLabel("Workspace chat provider").selectOption({ label: "Use the instance's LLM" });
      assert.equal(await page.getByLabel("Workspace chat model").isDisabled(), true);
      const answered = page.waitForResponse((response) =>
        response.url().endsWith("/api/workspace/atlas/update")
      );
      await page.getByRole("button", { name: "Save", exact: true }).click();
      assert.equal((await answered).status(), 200);
      row = await stored(app);
      assert.deepEqual([row.chatProvider, row.chatModel], [null, null]);

      // The chat page's empty state offers the suggested messages; in query mode with no documents the
      // workspace answers with its refusal.
      await page.goto(`${url}/workspace/atlas`);
      await hydrated(page);
      const offered = page.getByRole("button", { name: new RegExp(SUGGESTIONS[0].message) });
      await offered.waitFor({ timeout: 10_000 }).catch(() => {
        throw new Error("The chat page's empty state does not show the saved suggested messages");
      });
      await page.getByRole("button", { name: new RegExp(SUGGESTIONS[1].message) }).waitFor();
      await offered.click();
      await page.getByText(REFUSAL).first().waitFor({ timeout: 10_000 });

      // Agent configuration: provider and model.
      await open(page, url, "agent-config");
      await page.getByLabel("Workspace agent LLM provider").selectOption({ label: "Generic OpenAI" });
      await page.getByLabel("Workspace agent model").fill("agent-model");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await toast("Workspace settings saved.").waitFor();
      row = await stored(app);
      assert.deepEqual([row.agentProvider, row.agentModel], ["generic-openai", "agent-model"]);

      // Vector database: a document's vectors are counted; threshold high; reset (a failure first).
      const form = new FormData();
      form.append("file", new File(["Herons fish in rivers and eat frogs."], "herons.txt"));
      const upload = await app.json<{ success: boolean }>("/api/workspace/atlas/upload-and-embed", {
        method: "POST",
        body: form,
      });
      assert.equal(upload.body.success, true);
      await open(page, url, "vector-database");
      const count = page.getByTestId("vector-count");
      await page.waitForFunction(() =>
        /^[1-9]/.test(document.querySelector("[data-testid=vector-count]")?.textContent ?? "")
      );
      assert.ok(Number(await count.textContent()) > 0);
      await section("Vector database").getByText("lancedb").waitFor();
      const threshold = page.getByLabel("Document similarity threshold");
      assert.equal(await threshold.inputValue(), "0.25", "a new workspace starts at low");
      assert.deepEqual(
        await threshold.locator("option").allTextContents(),
        ["None", "Low (0.25 or more)", "Medium (0.50 or more)", "High (0.75 or more)"],
      );
      await threshold.selectOption({ label: "High (0.75 or more)" });
      await section("Document retrieval").getByRole("button", { name: "Save" }).click();
      await toast("Workspace settings saved.").waitFor();
      assert.equal((await stored(app)).similarityThreshold, 0.75);

      await page.route(
        "**/api/workspace/atlas/reset-vector-db",
        (route) =>
          route.fulfill({
            status: 500,
            contentType: "application/json",
            body: '{"success":false,"error":"x"}',
          }),
      );
      const resetButton = section("Reset vector database").getByRole("button", {
        name: "Reset vector database",
      });
      await resetButton.click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(/reset the vector database of Atlas Renamed/).waitFor();
      await dialog.getByRole("button", { name: "Reset vector database" }).click();
      await toast("Workspace vector database could not be reset!").waitFor();
      await page.unroute("**/api/workspace/atlas/reset-vector-db");
      await dialog.getByRole("button", { name: "Reset vector database" }).click();
      await toast("Workspace vector database was reset!").waitFor();
      await dialog.waitFor({ state: "hidden" });
      assert.equal(await count.textContent(), "0");
      const vectors = await app.json<{ vectorCount: number }>("/api/system/system-vectors?slug=atlas");
      assert.equal(vectors.body.vectorCount, 0);
      assert.deepEqual((await stored(app)).documents, []);

      // Delete: the confirmation names the workspace and says it goes for all users; then home.
      await open(page, url, "general-appearance");
      await section("Delete Workspace").getByRole("button", { name: "Delete Workspace" }).click();
      await dialog.getByText(/delete the workspace Atlas Renamed\? It will be deleted for all users/)
        .waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert.equal((await stored(app)).name, "Atlas Renamed", "cancel keeps it");
      await section("Delete Workspace").getByRole("button", { name: "Delete Workspace" }).click();
      await dialog.getByRole("button", { name: "Delete Workspace" }).click();
      await toast("Workspace Atlas Renamed deleted. Taking you home...").waitFor();
      await page.waitForURL(`${url}/`);
      await hydrated(page);
      const sidebar = page.locator("nav.sidebar");
      await sidebar.getByRole("link", { name: "Keeper", exact: true }).waitFor();
      assert.equal(await sidebar.getByRole("link", { name: "Atlas Renamed" }).count(), 0);
      assert.equal((await app.json("/api/workspace/atlas")).status, 404);

      assert.deepEqual(errors.filter((error) => !EXPECTED_CONSOLE.test(error)), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: workspace settings tabs fit a 375px phone, light and dark",
  ...browserTestOptions,
  async fn() {
    await using app = await instance();
    await app.json("/api/workspace/atlas/suggested-messages", { json: { messages: SUGGESTIONS } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      for (const colorScheme of ["light", "dark"] as const) {
        const page = await browser.newPage({ viewport: { width: 375, height: 812 }, colorScheme });
        const errors = watchErrors(page);
        for (const tab of WORKSPACE_SETTINGS_TABS) {
          await open(page, url, tab);
          await page.locator(".ws-section").first().waitFor();
          await page.locator(".loading-block").waitFor({ state: "detached" });
          const overflow = await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          );
          assert.equal(overflow, 0, `${tab} (${colorScheme}) scrolls sideways`);
          await page.screenshot({
            path: new URL(`workspace-settings-${tab}-${colorScheme}.png`, SCREENSHOTS).pathname,
            fullPage: true,
          });
        }
        assert.deepEqual(errors, [], colorScheme);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});
