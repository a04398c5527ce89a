import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

/** The card of one area: its provider, what it receives, where that goes and the closing sentence. */
async function card(page: Page, area: string) {
  const section = page.locator(".privacy-card", { has: page.locator(".privacy-area", { hasText: area }) });
  await section.waitFor();
  return {
    name: (await section.locator(".privacy-name").innerText()).trim(),
    receives: await section.locator(".privacy-receives li").allInnerTexts(),
    where: (await section.locator(".privacy-where").innerText()).trim(),
    note: (await section.locator(".privacy-note").innerText()).trim(),
    policy: await section.locator(".privacy-note a").getAttribute("href", { timeout: 500 }).catch(() => null),
  };
}

Deno.test({
  name:
    "browser: the privacy screen says what each configured provider receives and where it goes, on a phone too",
  ...browserTestOptions,
  async fn() {
    // The language model is a server on this machine; nothing here sends anything to it.
    await using app = await configuredTestApp({ llm: "http://127.0.0.1:9/v1" });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/privacy`);
      await hydrated(page);

      const llm = await card(page, "LLM Selection");
      assert.equal(llm.name, "Generic OpenAI");
      assert.deepEqual(llm.receives, [
        "Your messages and the workspace's system prompt",
        "Earlier messages of the chat",
        "Passages of your documents found for each question",
        "Images and files attached in the chat",
      ]);
      assert.equal(llm.where, "127.0.0.1:9, on this machine.");
      assert.equal(llm.note, "Nothing is sent to a third party.");

      const embedder = await card(page, "Embedding Preference");
      assert.equal(embedder.name, "Lectern Embedder");
      assert.deepEqual(embedder.receives, [
        "The text of the documents you add, chunk by chunk",
        "Your questions, to search the documents",
      ]);
      assert.equal(embedder.where, "This machine: it stays on the server running Lectern.");

      const vectors = await card(page, "Vector Database");
      assert.equal(vectors.name, "LanceDB");
      assert.deepEqual(vectors.receives, [
        "The vectors of your document chunks and questions",
        "The text of each chunk, with its document's title and source",
      ]);
      assert.equal(vectors.where, "This machine: it stays on the server running Lectern.");
      const transcription = await card(page, "Transcription");
      assert.equal(transcription.name, "Lectern Built-In");
      assert.deepEqual(transcription.receives, ["Recorded audio to transcribe"]);
      assert.equal(transcription.where, "This machine: it stays on the server running Lectern.");
      await page.getByText("Lectern sends no telemetry or usage data anywhere.").waitFor();
      await page.screenshot({ path: new URL("privacy.png", SCREENSHOTS).pathname, fullPage: true });

      // A hosted embedder: its API host and its privacy policy. (No document exists, so nothing is embedded.)
      const saved = await app.json("/api/system/update-env", {
        json: {
          EmbeddingEngine: "openai",
          OpenAiKey: "sk-privacy-test",
          EmbeddingModelPref: "text-embedding-3-small",
        },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      await page.reload();
      await hydrated(page);
      const hosted = await card(page, "Embedding Preference");
      assert.equal(hosted.name, "OpenAI");
      assert.equal(hosted.where, "api.openai.com (OpenAI), over the internet.");
      assert.match(hosted.note, /^OpenAI's terms and privacy policy apply to what it receives\./);
      assert.equal(hosted.policy, "https://openai.com/policies/privacy-policy/");

      // On a phone the cards stack and nothing runs off the side.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
        await page.screenshot({
          path: new URL(`privacy-phone-${colorScheme}.png`, SCREENSHOTS).pathname,
          fullPage: true,
        });
      }
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: a manager reads the privacy screen; a default user is sent home from it",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const manager = await addUser(app, admin, "morgan", "manager");
    const member = await addUser(app, admin, "dana", "default");
    assert.equal((await app.json("/api/setup-complete", bearer(manager.token))).status, 200);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const managerPage = await browser.newPage();
      const errors = watchErrors(managerPage);
      await signIn(managerPage, url, manager);
      await managerPage.goto(`${url}/settings/privacy`);
      await hydrated(managerPage);
      assert.equal((await card(managerPage, "LLM Selection")).name, "Generic OpenAI");
      assert.deepEqual(errors, []);

      const memberPage = await browser.newPage();
      await signIn(memberPage, url, member);
      await memberPage.goto(`${url}/settings/privacy`);
      await memberPage.waitForURL(`${url}/`);
    } finally {
      await browser.close();
    }
  },
});
