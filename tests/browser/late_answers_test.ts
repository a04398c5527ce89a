import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { configuredTestApp, createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, pageErrors, watchErrors } from "./chromium.ts";

/**
 * Holds back the answer to the first GET of `path`: the server answers it at once (before the user acts), the page
 * receives it only once `release` is called, as a slow network on a small machine would deliver it. `delivered`
 * settles once the page has received it. Later calls go through untouched.
 */
async function holdFirstAnswer(page: Page, path: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  let answered = () => {};
  const served = new Promise<void>((resolve) => answered = resolve);
  let first = true;
  let url = "";
  await page.route((address) => address.pathname === path, async (route) => {
    if (!first || route.request().method() !== "GET") return await route.fallback();
    first = false;
    url = route.request().url();
    const response = await route.fetch();
    answered();
    await held;
    await route.fulfill({ response });
  });
  const delivered = () =>
    page.waitForEvent("requestfinished", { predicate: (request) => request.url() === url }).then(() =>
      // Time for the page to read the answer and render it.
      new Promise((resolve) => setTimeout(resolve, 300))
    );
  return { served, release, delivered };
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
      const presets = await holdFirstAnswer(page, "/api/system/slash-command-presets");
      const logo = await holdFirstAnswer(page, "/api/system/is-default-logo");
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
      const delivered = Promise.all([presets.delivered(), logo.delivered()]);
      presets.release();
      logo.release();
      await delivered;
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
      const list = await holdFirstAnswer(page, `/api/workspace/${slug}/threads`);
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
      const delivered = list.delivered();
      list.release();
      await delivered;
      const sidebar = page.locator(".thread-list");
      await sidebar.getByText(renamed).waitFor();
      assert.equal(await sidebar.getByText(thread.name, { exact: true }).count(), 0);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});
