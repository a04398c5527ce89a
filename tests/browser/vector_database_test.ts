import assert from "node:assert/strict";
import { configuredTestApp, createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

Deno.test({
  name:
    "browser: vector database settings offer every database with its connection fields (Chroma and Qdrant filled)",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/vector-database`);
      await hydrated(page);
      // The reranker's card follows on the same screen, with a form of its own.
      const form = page.locator("#vector-database-form");
      await page.getByText("In use now: LanceDB").waitFor();
      assert.equal(await form.getByRole("radio", { name: /LanceDB/ }).isChecked(), true);
      assert.equal(await form.getByRole("radio").count(), 8, "LanceDB and the seven remote databases");
      assert.equal(await form.getByLabel("Chroma endpoint").count(), 0, "LanceDB has nothing to set up");

      await form.getByRole("radio", { name: /Chroma/ }).check({ force: true });
      const endpoint = form.getByLabel("Chroma endpoint");
      await endpoint.waitFor();
      assert.equal(await endpoint.getAttribute("required"), "");
      await page.getByTestId("vector-db-switch-notice").getByText(/Documents embedded so far stay in LanceDB/)
        .waitFor();

      await endpoint.fill("http://127.0.0.1:8000/");
      await form.getByLabel("API header").fill("Authorization");
      await form.getByLabel("API key").fill("secret-token");
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByText("Vector database preferences saved.").first().waitFor();
      assert.equal(app.deps.settings.value("VectorDB"), "chroma");
      assert.equal(app.deps.settings.value("ChromaEndpoint"), "http://127.0.0.1:8000");
      assert.equal(app.deps.settings.value("ChromaApiHeader"), "Authorization");
      assert.equal(app.deps.settings.value("ChromaApiKey"), "secret-token");
      await page.getByText("In use now: Chroma").waitFor();
      assert.equal(await page.getByTestId("vector-db-switch-notice").count(), 0);

      // The saved key comes back masked and is not sent again unless changed.
      await page.reload();
      await hydrated(page);
      const key = form.getByLabel("API key");
      await key.waitFor();
      assert.equal(await key.inputValue(), "*".repeat(20));
      assert.equal(await form.getByLabel("Chroma endpoint").inputValue(), "http://127.0.0.1:8000");
      await form.getByLabel("Chroma endpoint").fill("http://127.0.0.1:8001");
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByText("Vector database preferences saved.").first().waitFor();
      assert.equal(app.deps.settings.value("ChromaApiKey"), "secret-token");
      assert.equal(app.deps.settings.value("ChromaEndpoint"), "http://127.0.0.1:8001");

      // Qdrant: its own fields, Chroma's gone.
      // The list scrolls: the option's row is clicked, as a person would after scrolling to it.
      await form.locator("label.provider-option", { has: page.locator('input[value="qdrant"]') }).click();
      assert.equal(await form.getByRole("radio", { name: /Qdrant/ }).isChecked(), true);
      const qdrant = form.getByLabel("Qdrant endpoint");
      await qdrant.waitFor();
      assert.equal(await qdrant.getAttribute("required"), "");
      assert.equal(await form.getByLabel("Chroma endpoint").count(), 0);
      await qdrant.fill("http://127.0.0.1:6333");
      await form.getByLabel("API key").fill("qdrant-key");
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByText("In use now: Qdrant").waitFor();
      assert.equal(app.deps.settings.value("QdrantEndpoint"), "http://127.0.0.1:6333");
      assert.equal(app.deps.settings.value("QdrantApiKey"), "qdrant-key");
      assert.equal(app.deps.settings.value("ChromaApiKey"), "secret-token");

      // Back to LanceDB.
      await form.locator("label.provider-option", { has: page.locator('input[value="lancedb"]') }).click();
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByText("In use now: LanceDB").waitFor();
      assert.equal(app.deps.settings.value("VectorDB"), "lancedb");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: the reranker card offers the catalog's rerankers, saves one and shows its key masked",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/vector-database`);
      await hydrated(page);
      const card = page.getByTestId("reranker-settings");
      await card.getByRole("heading", { name: "Reranker" }).waitFor();
      assert.equal(await card.getByRole("radio").count(), 5, "one per row of reranker_catalog.ts");
      assert.equal(
        await card.getByRole("radio", { name: /Built-in/ }).isChecked(),
        true,
        "the local one by default",
      );
      assert.equal(
        await card.getByLabel("Reranking model").getAttribute("placeholder"),
        "Xenova/ms-marco-MiniLM-L-6-v2",
      );
      assert.equal(await card.getByLabel("API key").count(), 0, "the local reranker needs no key");

      await card.getByRole("radio", { name: /Cohere/ }).check({ force: true });
      const key = card.getByLabel("API key");
      await key.waitFor();
      assert.equal(await key.getAttribute("required"), "");
      assert.equal(await card.getByLabel("Base URL").getAttribute("placeholder"), "https://api.cohere.com");
      await key.fill("cohere-secret");
      await card.getByRole("button", { name: "Save" }).click();
      await page.getByText("Reranker preferences saved.").first().waitFor();
      assert.equal(app.deps.settings.value("RerankerProvider"), "cohere");
      assert.equal(app.deps.settings.value("RerankerApiKey"), "cohere-secret");

      // The answer never holds the key; the form shows it masked and does not send it back unchanged.
      const system = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
      assert.equal(system.body.results.RerankerApiKey, true);
      assert.doesNotMatch(JSON.stringify(system.body), /cohere-secret/);
      await page.reload();
      await hydrated(page);
      await card.getByLabel("API key").waitFor();
      assert.equal(await card.getByLabel("API key").inputValue(), "*".repeat(20));
      assert.equal(await card.getByRole("radio", { name: /Cohere/ }).isChecked(), true);
      await card.getByLabel("Reranking model").fill("rerank-v3.5");
      await card.getByRole("button", { name: "Save" }).click();
      await page.getByText("Reranker preferences saved.").first().waitFor();
      assert.equal(app.deps.settings.value("RerankerModelPref"), "rerank-v3.5");
      assert.equal(app.deps.settings.value("RerankerApiKey"), "cohere-secret");

      // A generic /rerank server needs its address.
      await card.getByRole("radio", { name: /Any \/rerank API/ }).check({ force: true });
      assert.equal(await card.getByLabel("Base URL").getAttribute("required"), "");
      await card.getByLabel("Base URL").fill("http://127.0.0.1:8080/v1/");
      await card.getByRole("button", { name: "Save" }).click();
      await page.getByText("Reranker preferences saved.").first().waitFor();
      assert.equal(app.deps.settings.value("RerankerProvider"), "generic");
      assert.equal(app.deps.settings.value("RerankerBasePath"), "http://127.0.0.1:8080/v1");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: the workspace's hybrid search and follow-up rewriting switches are on by default and save off",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Atlas" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/atlas/settings/vector-database`);
      await hydrated(page);
      const hybrid = page.getByRole("switch", { name: "Hybrid search" });
      await hybrid.waitFor();
      assert.equal(await hybrid.isChecked(), true);
      await hybrid.uncheck();
      const rewrite = page.getByRole("switch", { name: "Rewrite follow-up questions" });
      assert.equal(await rewrite.isChecked(), true, "follow-up questions are rewritten by default");
      await rewrite.uncheck();
      const section = page.getByRole("region", { name: "Document retrieval", exact: true });
      await section.getByRole("button", { name: "Save" }).click();
      await page.locator(".Toastify").getByText("Workspace settings saved.").first().waitFor();
      const { body } = await app.json<{ workspace: { hybridSearch: boolean; queryRewrite: boolean } }>(
        "/api/workspace/atlas",
      );
      assert.equal(body.workspace.hybridSearch, false);
      assert.equal(body.workspace.queryRewrite, false);
      await page.reload();
      await hydrated(page);
      await page.getByRole("switch", { name: "Hybrid search" }).waitFor();
      assert.equal(await page.getByRole("switch", { name: "Hybrid search" }).isChecked(), false);
      assert.equal(
        await page.getByRole("switch", { name: "Rewrite follow-up questions" }).isChecked(),
        false,
      );
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: vector database settings fit a 375px phone, light and dark",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    await app.json("/api/system/update-env", {
      json: genericOpenAiSettings("http://127.0.0.1:9/v1", {
        VectorDB: "chroma",
        ChromaEndpoint: "http://127.0.0.1:8000",
      }),
    });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      for (const colorScheme of ["light", "dark"] as const) {
        const page = await browser.newPage({ viewport: { width: 375, height: 812 }, colorScheme });
        const errors = watchErrors(page);
        await page.goto(`${url}/settings/vector-database`);
        await hydrated(page);
        await page.getByLabel("Chroma endpoint").waitFor();
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        assert.equal(overflow, 0, `${colorScheme} scrolls sideways`);
        await page.screenshot({
          path: new URL(`vector-database-${colorScheme}.png`, SCREENSHOTS).pathname,
          fullPage: true,
        });
        assert.deepEqual(errors, []);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});
