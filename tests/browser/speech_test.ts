import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaceChats, workspaces } from "../../db/schema.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { startFakeAudio } from "../../server/testing/fake_audio.ts";
import type { ProviderDeps } from "../../server/providers/endpoints.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

Deno.test({
  name: "browser: the transcription screen shows the local model's warning and round-trips a masked key",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/transcription-preference`);
      await hydrated(page);
      await page.getByRole("heading", { name: "Transcription", level: 1 }).waitFor();
      assert.equal(await page.getByRole("radio", { name: /Lectern Built-In/ }).isChecked(), true);
      const warning = page.getByTestId("whisper-warning");
      await warning.getByText(/We recommend at least 2GB of RAM and upload files <10Mb\./).waitFor();
      await warning.getByText(/\(250mb\)/).waitFor();
      const model = page.getByRole("combobox", { name: "Model", exact: true });
      assert.equal(await model.inputValue(), "Xenova/whisper-small");
      await model.selectOption("Xenova/whisper-large");
      await warning.getByText(/\(1\.56GB\)/).waitFor();

      await page.getByRole("radio", { name: /^OpenAI (?!Compatible)/ }).check({ force: true });
      const key = page.locator("input[type=password]");
      await key.fill("sk-whisper-secret");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Transcription preferences saved successfully.").first().waitFor();
      assert.equal(app.deps.settings.value("WhisperProvider"), "openai");
      assert.equal(app.deps.settings.value("OpenAiKey"), "sk-whisper-secret");

      await page.reload();
      await hydrated(page);
      assert.equal(await page.getByRole("radio", { name: /^OpenAI (?!Compatible)/ }).isChecked(), true);
      await page.locator("input[type=password]").waitFor();
      assert.equal(await page.locator("input[type=password]").inputValue(), "*".repeat(20));
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Transcription preferences saved successfully.").first().waitFor();
      assert.equal(
        app.deps.settings.value("OpenAiKey"),
        "sk-whisper-secret",
        "the mask is not saved as the key",
      );
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: the voice & speech screen saves a TTS provider; the speak button fetches the answer's audio",
  ...browserTestOptions,
  async fn() {
    await using fake = startFakeAudio();
    const providerDeps: ProviderDeps = { endpoints: { openai: fake.baseURL } };
    await using app = await configuredTestApp({ providerDeps });
    await app.json("/api/workspace/new", { json: { name: "Talk" } });
    const [workspace] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, "talk"));
    await app.deps.db.insert(workspaceChats).values({
      workspaceId: workspace.id,
      prompt: "Say hello.",
      response: JSON.stringify({ text: "Hello there, **listener**.", sources: [], type: "chat" }),
      createdAt: new Date(),
      lastUpdatedAt: new Date(),
    });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/audio-preference`);
      await hydrated(page);
      await page.getByRole("heading", { name: "Voice & Speech", level: 1 }).waitFor();
      const ttsNative = page.getByRole("group", { name: "Text-to-speech provider" }).getByRole("radio", {
        name: /System native/,
      });
      await ttsNative.waitFor({ state: "attached" });
      assert.equal(await ttsNative.isChecked(), true);
      assert.equal(
        await page.getByRole("group", { name: "Speech-to-text provider" }).getByRole("radio", {
          name: /System native/,
        }).isChecked(),
        true,
      );

      await page.getByRole("radio", { name: /^OpenAI (?!Compatible)/ }).check({ force: true });
      assert.equal(await page.getByLabel("Voice", { exact: true }).inputValue(), "alloy");
      await page.locator("input[type=password]").fill("sk-tts-secret");
      await page.getByLabel("Voice", { exact: true }).selectOption("nova");
      await page.getByRole("radio", { name: /Transcription provider/ }).check({ force: true });
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Speech preferences saved successfully.").first().waitFor();
      assert.equal(app.deps.settings.value("TextToSpeechProvider"), "openai");
      assert.equal(app.deps.settings.value("TTSOpenAIKey"), "sk-tts-secret");
      assert.equal(app.deps.settings.value("TTSOpenAIVoiceModel"), "nova");
      assert.equal(app.deps.settings.value("SpeechToTextProvider"), "transcription");

      await page.reload();
      await hydrated(page);
      await page.locator("input[type=password]").waitFor();
      assert.equal(await page.locator("input[type=password]").inputValue(), "*".repeat(20));
      assert.equal(await page.getByLabel("Voice", { exact: true }).inputValue(), "nova");

      await page.goto(`${url}/workspace/talk`);
      await hydrated(page);
      await page.getByText("Hello there,").waitFor();
      const speak = page.getByRole("button", { name: "Speak", exact: true });
      await speak.waitFor({ state: "attached" });
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.url().includes("/api/workspace/talk/tts/")),
        speak.click({ force: true }),
      ]);
      assert.equal(answer.status(), 200);
      assert.equal(answer.headers()["content-type"], "audio/wav");
      await answer.finished();
      assert.equal((await answer.request().sizes()).responseBodySize, fake.audio.length);
      assert.deepEqual(fake.speeches[0].body, {
        model: "tts-1",
        voice: "nova",
        input: "Hello there, listener.",
      });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
