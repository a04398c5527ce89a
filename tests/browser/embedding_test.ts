import assert from "node:assert/strict";
import { createTestApp, genericOpenAiSettings, type TestApp } from "../../server/testing/test_app.ts";
import type { EmbedderDeps } from "../../server/providers/embedders/registry.ts";
import { startFakeEmbedders } from "../../server/providers/embedders/testing/fake_embedders.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

const quick: EmbedderDeps = { retry: { baseDelayMs: 1, maxDelayMs: 5, attempts: 2 } };

/** A configured instance with the workspace Atlas holding three embedded documents. */
async function instance(): Promise<TestApp> {
  const app = await createTestApp({ providerDeps: quick });
  await app.json("/api/system/update-env", { json: genericOpenAiSettings("http://127.0.0.1:9/v1") });
  await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  const locations = [];
  for (const name of ["herons", "owls", "cranes"]) {
    const form = new FormData();
    form.append("file", new File([`All about ${name}. ${name} live near water.`], `${name}.txt`));
    const answer = await app.json<{ documents: { location: string }[] }>("/api/workspace/atlas/upload", {
      method: "POST",
      body: form,
    });
    locations.push(answer.body.documents[0].location);
  }
  await app.json("/api/workspace/atlas/update-embeddings", { json: { adds: locations } });
  return app;
}

Deno.test({
  name: "browser: text splitter preferences are checked, saved and read back",
  ...browserTestOptions,
  async fn() {
    await using app = await instance();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/text-splitter-preference`);
      await hydrated(page);
      const size = page.getByLabel("Text chunk size");
      const overlap = page.getByLabel("Text chunk overlap");
      await size.waitFor();
      assert.equal(await size.inputValue(), "1000");
      assert.equal(await overlap.inputValue(), "20");
      await page.getByText("The embedder in use takes at most 1000.").waitFor();
      const save = page.getByRole("button", { name: "Save", exact: true });
      assert.equal(await save.isDisabled(), true, "nothing changed yet");

      await overlap.fill("1200");
      await page.getByText("The overlap must be smaller than the chunk size.").waitFor();
      await size.fill("400");
      await overlap.fill("50");
      await save.click();
      await page.locator(".Toastify").getByText("Text splitter preferences saved.").waitFor();
      const { body } = await app.json<{ settings: Record<string, number> }>(
        "/api/admin/system-preferences-for?labels=text_splitter_chunk_size,text_splitter_chunk_overlap",
      );
      assert.deepEqual(body.settings, { text_splitter_chunk_size: 400, text_splitter_chunk_overlap: 50 });

      await page.reload();
      await hydrated(page);
      await page.getByLabel("Text chunk size").waitFor();
      assert.equal(await page.getByLabel("Text chunk size").inputValue(), "400");
      assert.deepEqual(errors, []);

      for (const colorScheme of ["light", "dark"] as const) {
        const phone = await browser.newPage({ viewport: { width: 375, height: 812 }, colorScheme });
        await phone.goto(`${url}/settings/text-splitter-preference`);
        await hydrated(phone);
        await phone.getByLabel("Text chunk size").waitFor();
        const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.equal(overflow, 0, `${colorScheme} scrolls sideways`);
        await phone.screenshot({ path: new URL(`text-splitter-${colorScheme}.png`, SCREENSHOTS).pathname });
        await phone.close();
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: choosing another embedder shows the re-embedding progress, then the switch",
  ...browserTestOptions,
  async fn() {
    await using embeddings = startFakeEmbedders({ dimensions: 64 });
    await using app = await instance();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/embedding-preference`);
      await hydrated(page);
      await page.getByText("Chats and new documents use Lectern Embedder (lectern-lexical-v1).").waitFor();
      await page.getByRole("list", { name: "Native models" }).getByText("Built in").waitFor();

      // The fake holds the second document so the progress bar can be seen half way.
      const gate = embeddings.hold(1);
      await page.getByText("Generic OpenAI", { exact: true }).click();
      await page.getByLabel("Base URL").fill(`${embeddings.url}/v1`);
      await page.getByRole("textbox", { name: "Embedding model", exact: true }).fill("new-model");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.locator(".Toastify").getByText("Embedding preferences saved.").waitFor();
      const bar = page.getByRole("progressbar", { name: "Re-embedding progress" });
      await bar.waitFor();
      await page.getByText("Re-embedding documents for Generic OpenAI: 1 of 3.").waitFor();
      assert.equal(await bar.getAttribute("max"), "3");
      await page.screenshot({ path: new URL("embedding-progress.png", SCREENSHOTS).pathname });

      gate.release();
      await page.getByText("Switched to Generic OpenAI: 3 documents were embedded again.").waitFor();
      await page.getByText("Chats and new documents use Generic OpenAI (new-model).").waitFor();
      assert.equal(await bar.count(), 0);

      // A failing embedder: the reason shows, and the engine in use stays.
      embeddings.rejectModel("broken-model");
      await page.getByRole("textbox", { name: "Embedding model", exact: true }).fill("broken-model");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText(
        /Re-embedding for Generic OpenAI failed, so the embedder in use did not change: .*broken-model does not exist/,
      )
        .waitFor();
      await page.getByText("Chats and new documents use Generic OpenAI (new-model).").waitFor();
      await page.getByRole("button", { name: "Try again" }).waitFor();
      assert.deepEqual(errors.filter((error) => !/status of 4\d\d/.test(error)), []);

      const phone = await browser.newPage({ viewport: { width: 375, height: 812 }, colorScheme: "dark" });
      await phone.goto(`${url}/settings/embedding-preference`);
      await hydrated(phone);
      await phone.getByRole("heading", { name: "Embedder in use" }).waitFor();
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.equal(overflow, 0, "the phone layout scrolls sideways");
      await phone.screenshot({ path: new URL("embedding-preference-dark.png", SCREENSHOTS).pathname });
    } finally {
      await browser.close();
    }
  },
});
