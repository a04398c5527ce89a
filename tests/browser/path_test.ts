import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { configuredTestApp, createTestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

const FREEDONIA =
  "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.\n\n" +
  "Freedonia exports cheese and violins. Its national bird is the grey heron.";

Deno.test({
  name:
    "browser: configure an LLM, create a workspace, upload, ask and see the streamed answer with a citation",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply((request) => {
      const cited = /Fredville/.test(request.messages[0].content);
      return {
        chunks: ["The capital ", "is **Fredville**", cited ? " (from your document)." : "."],
        delayMs: 30,
      };
    });
    // An open instance without a language model or vector database sends its pages to onboarding:
    // start from a configured one whose model server does not exist, and point it at the fake here.
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors = watchErrors(page);

      await page.goto(`${url}/settings/llm-preference`);
      await hydrated(page);
      await page.getByRole("radio", { name: /Generic OpenAI/ }).check({ force: true });
      await page.locator('input[name="GenericOpenAiBasePath"]').fill(llm.baseURL);
      await page.locator('input[name="GenericOpenAiModelPref"]').fill("fake-model");
      await page.locator('input[name="GenericOpenAiTokenLimit"]').fill("4096");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("LLM preferences saved.").waitFor();
      assert.equal(app.deps.settings.value("LLMProvider"), "generic-openai");
      assert.equal(app.deps.settings.value("GenericOpenAiBasePath"), llm.baseURL);

      await page.goto(url);
      await hydrated(page);
      await page.locator("nav.sidebar").getByRole("button", { name: "New Workspace" }).click();
      await page.getByPlaceholder("My Workspace").fill("Atlas of Freedonia");
      await page.getByRole("button", { name: "Create workspace" }).click();
      await page.waitForURL(`${url}/workspace/atlas-of-freedonia`);
      await hydrated(page);
      await page.locator("nav.sidebar").getByRole("link", { name: "Atlas of Freedonia", exact: true })
        .waitFor();

      await page.getByRole("button", { name: /Documents \(0\)/ }).click();
      const file = await Deno.makeTempFile({ suffix: ".txt" });
      const named = file.replace(/[^/]+$/, "freedonia.txt");
      await Deno.writeTextFile(named, FREEDONIA);
      await page.getByTestId("document-input").setInputFiles(named);
      await page.locator(".document-list").getByText("freedonia.txt").waitFor();
      await page.getByRole("button", { name: /Documents \(1\)/ }).waitFor();

      await page.getByLabel("Your message").fill("What is the capital of Freedonia?");
      await page.getByLabel("Your message").press("Enter");
      await page.locator(".message.user").getByText("What is the capital of Freedonia?").waitFor();
      const answer = page.locator(".message.assistant").last();
      await answer.locator("strong", { hasText: "Fredville" }).waitFor();
      await answer.getByText("(from your document).").waitFor();
      const citation = answer.getByRole("button", { name: "freedonia.txt" });
      await citation.click();
      await page.getByRole("dialog").getByText(/% match/).waitFor();
      await page.getByRole("dialog").getByText(/The capital of Freedonia is Fredville/).waitFor();
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("path-citation.png", SCREENSHOTS)) });
      await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();

      await page.reload();
      await hydrated(page);
      await page.locator(".message.assistant").getByText("Fredville").waitFor();
      await page.screenshot({
        path: fileURLToPath(new URL("path-after-reload.png", SCREENSHOTS)),
        fullPage: true,
      });
      assert.deepEqual(errors, [], "no console or hydration errors");
      await Deno.remove(named);
      await Deno.remove(file);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: a streaming error shows the spec's text, and markdown never renders raw HTML",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await createTestApp();
    await app.json("/api/system/update-env", {
      json: {
        LLMProvider: "generic-openai",
        GenericOpenAiBasePath: llm.baseURL,
        GenericOpenAiModelPref: "m",
        GenericOpenAiTokenLimit: "4096",
        VectorDB: "lancedb",
      },
    });
    await app.json("/api/workspace/new", { json: { name: "Safe" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/workspace/safe`);
      await hydrated(page);
      llm.setReply(() => ({
        chunks: ['<img src=x onerror="window.__pwned=1">', "[link](javascript:alert(1))"],
      }));
      await page.getByLabel("Your message").fill("show me html");
      await page.getByRole("button", { name: "Send" }).click();
      const answer = page.locator(".message.assistant").last();
      await answer.getByText("<img src=x", { exact: false }).waitFor();
      assert.equal(await answer.locator("img").count(), 0, "raw HTML is shown as text");
      assert.equal(await answer.locator('a[href^="javascript"]').count(), 0, "unsafe links are not links");
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned),
        undefined,
      );

      llm.setReply(() => ({ status: 401, message: "Incorrect API key provided" }));
      await page.getByLabel("Your message").fill("again");
      await page.getByLabel("Your message").press("Enter");
      await page.locator(".message.error").getByText(/Incorrect API key provided/).waitFor();
      await page.getByRole("button", { name: "Send" }).waitFor();
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: on a phone-sized screen the sidebar folds into a menu",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Pocket" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 740 }, colorScheme: "dark" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/pocket`);
      await hydrated(page);
      const link = page.locator("nav.sidebar").getByRole("link", { name: "Pocket", exact: true });
      assert.equal(await link.isVisible(), false, "the list is folded");
      await page.getByRole("button", { name: "Open the menu" }).click();
      await link.waitFor({ state: "visible" });
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.equal(overflow, 0, "no sideways scrolling");
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background, "rgb(18, 22, 20)", "the dark theme follows the system");
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("phone-menu.png", SCREENSHOTS)) });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
