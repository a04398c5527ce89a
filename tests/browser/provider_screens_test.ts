import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { nativeModelsDirectory } from "../../server/providers/llm/native_llm/models.ts";
import { writeTinyLlamaGguf } from "../../server/providers/llm/native_llm/testing/gguf_writer.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

const PHONE = { width: 390, height: 844 };

Deno.test({
  name:
    "browser: the LLM preference screen with the native provider lists the model in STORAGE_DIR/models/downloaded",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const folder = nativeModelsDirectory(app.deps.paths.models);
    await Deno.mkdir(folder, { recursive: true });
    await writeTinyLlamaGguf(join(folder, "tiny-test-model.gguf"), { contextLength: 4096 });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/llm-preference`);
      await hydrated(page);
      await page.locator("label.provider-option", { has: page.locator('input[value="native"]') }).click();
      await page.getByRole("heading", { name: "Native settings" }).waitFor();
      const select = page.locator('select[name="NativeLLMModelPref"]');
      await select.locator('option[value="tiny-test-model.gguf"]').waitFor({ state: "attached" });
      assert.equal(await select.inputValue(), "tiny-test-model.gguf", "the only model found is chosen");
      await page.locator('input[name="NativeLLMTokenLimit"]').fill("4096");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.locator(".Toastify").getByText("LLM preferences saved.").waitFor();
      assert.equal(app.deps.settings.value("LLMProvider"), "native");
      assert.equal(app.deps.settings.value("NativeLLMModelPref"), "tiny-test-model.gguf");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

/** The page does not scroll sideways, and every control shown lies inside the screen's width. */
async function fitsThePhone(page: Page, where: string) {
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= globalThis.innerWidth),
    `${where}: the page scrolls sideways`,
  );
  const controls = page.locator(
    "main :is(select, textarea, button, input:not([type=radio]):not([type=hidden]), label.provider-option, .field-label)",
  );
  let seen = 0;
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    if (!box || box.width === 0) continue;
    seen++;
    const name = await control.evaluate((element) =>
      `${element.tagName.toLowerCase()}[${
        element.getAttribute("name") ?? element.textContent?.trim().slice(0, 30)
      }]`
    );
    assert.ok(
      box.x >= -0.5 && box.x + box.width <= PHONE.width + 0.5,
      `${where}: ${name} at ${JSON.stringify(box)}`,
    );
  }
  assert.ok(seen >= 3, `${where}: only ${seen} controls were seen`);
}

Deno.test({
  name:
    "browser: the transcription and voice & speech screens fit a 390x844 phone with their controls visible",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: PHONE });
      const errors = watchErrors(page);

      await page.goto(`${url}/settings/transcription-preference`);
      await hydrated(page);
      await page.getByRole("heading", { name: "Transcription", level: 1 }).waitFor();
      await page.getByTestId("whisper-warning").waitFor();
      await page.getByRole("combobox", { name: "Model", exact: true }).waitFor();
      await page.getByRole("button", { name: "Save" }).waitFor();
      await fitsThePhone(page, "transcription, built-in model");
      await page.getByRole("radio", { name: /OpenAI Compatible/ }).check({ force: true });
      await page.locator('input[name="WhisperGenericOpenAiBaseUrl"]').waitFor();
      await fitsThePhone(page, "transcription, OpenAI-compatible");

      await page.goto(`${url}/settings/audio-preference`);
      await hydrated(page);
      await page.getByRole("heading", { name: "Voice & Speech", level: 1 }).waitFor();
      await page.getByRole("group", { name: "Text-to-speech provider" }).waitFor();
      await page.getByRole("group", { name: "Speech-to-text provider" }).waitFor();
      await fitsThePhone(page, "voice & speech, browser voices");
      await page.getByRole("radio", { name: /^OpenAI (?!Compatible)/ }).check({ force: true });
      await page.locator("input[type=password]").first().waitFor();
      await page.getByRole("button", { name: "Save" }).waitFor();
      await fitsThePhone(page, "voice & speech, OpenAI");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
