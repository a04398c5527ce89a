import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { seedDocument } from "../../server/documents/library_fixtures.ts";
import { configuredTestApp, createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, pageErrors, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

/**
 * Holds back the answers to the GETs of `path` (only the first one with `onlyFirst`): the server answers each at
 * once, before the user acts, and the page receives them only on `deliver()`, as a slow network on a small
 * machine would deliver them. `served` settles once the server has answered the first; `deliver()` once the page
 * has received them all and had time to show them. Calls made after `deliver()` go through untouched.
 */
async function holdAnswers(page: Page, path: string, { onlyFirst = false } = {}) {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  let answered = () => {};
  const served = new Promise<void>((resolve) => answered = resolve);
  let released = false;
  const finished: Promise<unknown>[] = [];
  await page.route((address) => address.pathname === path, async (route) => {
    const request = route.request();
    if (released || (onlyFirst && finished.length > 0) || request.method() !== "GET") {
      return await route.fallback();
    }
    // A test that failed before `deliver()` closes the page under this wait.
    finished.push(
      page.waitForEvent("requestfinished", { predicate: (done) => done === request }).catch(() => {}),
    );
    const response = await route.fetch();
    answered();
    await held;
    await route.fulfill({ response });
  });
  const deliver = async () => {
    released = true;
    release();
    await Promise.all(finished);
    // Time for the page to read the answers and render them.
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  return { served, deliver };
}

Deno.test({
  name: "browser: a preset and a logo added before their lists arrive stay on the appearance page",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      const presets = await holdAnswers(page, "/api/system/slash-command-presets", { onlyFirst: true });
      const logo = await holdAnswers(page, "/api/system/is-default-logo", { onlyFirst: true });
      await page.goto(`${url}/settings/appearance`);
      await hydrated(page);
      await Promise.all([presets.served, logo.served]);

      await page.getByLabel("Command", { exact: true }).fill("summary");
      await page.getByLabel("Prompt", { exact: true }).fill("Summarise the last answer.");
      await page.getByRole("button", { name: "Add preset" }).click();
      await page.getByText("Preset created.").waitFor();
      await page.locator(".preset-item code", { hasText: "/summary" }).waitFor();

      await page.getByLabel("Upload a logo for the light theme").setInputFiles({
        name: "acme.svg",
        mimeType: "image/svg+xml",
        buffer: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 2"><rect width="8" height="2"/></svg>`,
        ),
      });
      await page.getByText("Image uploaded successfully.").waitFor();
      const light = page.locator('[data-theme-variant="light"]');
      await light.getByText("A custom logo is shown.").waitFor();

      // The answers asked for before the preset and the logo existed arrive now, and change nothing.
      await Promise.all([presets.deliver(), logo.deliver()]);
      assert.equal(await page.locator(".preset-item code", { hasText: "/summary" }).count(), 1);
      assert.equal(await light.getByText("A custom logo is shown.").count(), 1);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: a thread renamed by its first message keeps its new name when the sidebar's older list arrives",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply(() => ({ chunks: ["Noted."], delayMs: 10 }));
    await using app = await createTestApp();
    assert.equal(
      (await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) })).status,
      200,
    );
    const { body } = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      json: { name: "Atlas" },
    });
    const slug = body.workspace.slug;
    const created = await app.json<{ thread: { slug: string; name: string } }>(
      `/api/workspace/${slug}/thread/new`,
      {
        method: "POST",
      },
    );
    const thread = created.body.thread;
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      const list = await holdAnswers(page, `/api/workspace/${slug}/threads`, { onlyFirst: true });
      await page.goto(`${url}/workspace/${slug}/t/${thread.slug}`);
      await hydrated(page);
      await list.served;
      await page.getByLabel("Your message").fill("Budget for the spring trip");
      await page.getByRole("button", { name: "Send" }).click();
      await page.locator(".message.assistant").getByText("Noted.").waitFor();
      const threads = await app.json<{ threads: { slug: string; name: string }[] }>(
        `/api/workspace/${slug}/threads`,
      );
      const renamed = threads.body.threads.find((entry) => entry.slug === thread.slug)!.name;
      assert.notEqual(renamed, thread.name, "the first message names the thread");

      // The list the sidebar asked for before the message, with the old name, arrives now.
      await list.deliver();
      const sidebar = page.locator(".thread-list");
      await sidebar.getByText(renamed).waitFor();
      assert.equal(await sidebar.getByText(thread.name, { exact: true }).count(), 0);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: invites, API keys and chat widgets offer nothing to create until the workspaces have been read",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    await app.json("/api/workspace/new", { json: { name: "Atlas" }, ...bearer(admin.token) });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const screens = [
        { path: "invites", create: "Create invite" },
        { path: "api-keys", create: "Generate new API key" },
        { path: "embed-config", create: "New chat widget" },
      ];
      for (const screen of screens) {
        const page = await browser.newPage();
        const errors = watchErrors(page);
        await signIn(page, url, admin);
        // The sidebar's list and the screen's: both are held.
        const workspaces = await holdAnswers(page, "/api/workspaces");
        await page.goto(`${url}/settings/${screen.path}`);
        await hydrated(page);
        await workspaces.served;
        const create = page.getByRole("button", { name: screen.create });
        await create.waitFor();
        assert.equal(
          await create.isDisabled(),
          true,
          `${screen.path}: nothing to create before the workspaces`,
        );
        assert.equal(
          await page.getByText("Create a workspace first").count(),
          0,
          `${screen.path}: no false notice`,
        );
        await workspaces.deliver();
        assert.equal(await create.isEnabled(), true, `${screen.path}: offered once the workspaces are read`);
        await create.click();
        const dialog = page.getByRole("dialog");
        await dialog.waitFor();
        if (screen.path === "api-keys") await dialog.getByText("Chosen workspaces").click();
        // The workspace is offered: a checkbox, or an option of the widget's select.
        await dialog.locator("label.check, option", { hasText: "Atlas" }).first().waitFor({
          state: "attached",
        });
        assert.deepEqual(pageErrors(errors), []);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: workspace settings: no picture upload before the stored one is read; a reset's 0 stays 0",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    await app.json("/api/system/update-env", { json: genericOpenAiSettings("http://127.0.0.1:9/v1") });
    await app.json("/api/workspace/new", { json: { name: "Atlas" } });
    const form = new FormData();
    form.append("file", new File(["Herons fish in rivers and eat frogs."], "herons.txt"));
    const upload = await app.json<{ success: boolean }>("/api/workspace/atlas/upload-and-embed", {
      method: "POST",
      body: form,
    });
    assert.equal(upload.body.success, true);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      const picture = await holdAnswers(page, "/api/workspace/atlas/pfp", { onlyFirst: true });
      await page.goto(`${url}/workspace/atlas/settings/general-appearance`);
      await hydrated(page);
      await picture.served;
      const chooser = page.getByLabel("Upload a picture");
      assert.equal(
        await chooser.isDisabled(),
        true,
        "a file chosen now would lose its preview to the late answer",
      );
      await picture.deliver();
      assert.equal(await chooser.isEnabled(), true);

      const count = await holdAnswers(page, "/api/system/system-vectors", { onlyFirst: true });
      await page.goto(`${url}/workspace/atlas/settings/vector-database`);
      await hydrated(page);
      await count.served;
      await page.getByRole("button", { name: "Reset vector database" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Reset vector database" }).click();
      await page.getByText("Workspace vector database was reset!").waitFor();
      const shown = page.getByTestId("vector-count");
      assert.equal(await shown.textContent(), "0");
      // The count read before the reset arrives now.
      await count.deliver();
      assert.equal(await shown.textContent(), "0");
      const vectors = await app.json<{ vectorCount: number }>("/api/system/system-vectors?slug=atlas");
      assert.equal(vectors.body.vectorCount, 0);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: an endpoint typed in while auto-detect runs is not replaced by what it finds later",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await createTestApp();
    assert.equal(
      (await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) })).status,
      200,
    );
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      // Stands in for an LM Studio on 127.0.0.1:1234 that answers slowly; the other candidates are really asked.
      let release = () => {};
      const held = new Promise<void>((resolve) => release = resolve);
      let asked = () => {};
      const found = new Promise<void>((resolve) => asked = resolve);
      await page.route("**/api/system/custom-models", async (route) => {
        const body = route.request().postDataJSON() as { basePath?: string };
        if (body.basePath !== "http://127.0.0.1:1234/v1") return await route.fallback();
        asked();
        await held;
        await route.fulfill({
          json: {
            models: [{ id: "found-model", name: "found-model", organization: "lmstudio" }],
            error: null,
          },
        }).catch(() => {}); // The page may have given up on it.
      });
      await page.goto(`${url}/settings/llm-preference`);
      await hydrated(page);
      await page.getByPlaceholder("Search LLM providers").fill("studio");
      await page.getByRole("radio", { name: /LM Studio/ }).check({ force: true });
      await found;
      await page.getByRole("button", { name: "Show Manual Endpoint Input" }).click();
      const basePath = page.locator('input[name="LMStudioBasePath"]');
      await basePath.fill("http://127.0.0.1:9/v1");
      // The slow server answers now: what was typed stays.
      release();
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await page.getByText("Provider endpoint discovered automatically.").count(), 0);
      assert.equal(await basePath.inputValue(), "http://127.0.0.1:9/v1");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: a document removed from the workspace stays removed when an older read of the workspace arrives",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Library" } });
    const kept = await seedDocument(app.deps, "Field notes.txt");
    await seedDocument(app.deps, "Old minutes.txt");
    const embedded = await app.json("/api/workspace/library/update-embeddings", {
      json: { adds: [kept.location] },
    });
    assert.equal(embedded.body.message, null);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/library`);
      await hydrated(page);
      await page.getByRole("button", { name: /Documents \(1\)/ }).click();
      const manager = page.locator(".doc-manager");
      const library = manager.locator(".doc-library");
      const mine = manager.locator(".doc-workspace");
      await mine.getByText("Field notes.txt").waitFor();

      // Deleting a library document reads the workspace again; that read is answered now and arrives late.
      const read = await holdAnswers(page, "/api/workspace/library", { onlyFirst: true });
      await library.locator(".doc-row", { hasText: "Old minutes.txt" }).click();
      await library.getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await read.served;
      // Meanwhile the other document leaves the workspace.
      await mine.getByRole("button", { name: "Remove Field notes.txt from the workspace" }).click();
      await page.getByRole("button", { name: /Documents \(0\)/ }).waitFor();
      await read.deliver();
      assert.equal(await page.getByRole("button", { name: /Documents \(0\)/ }).count(), 1);
      assert.equal(await mine.getByText("Field notes.txt").count(), 0);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});
