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
      await page.getByText("In use now: LanceDB").waitFor();
      assert.equal(await page.getByRole("radio", { name: /LanceDB/ }).isChecked(), true);
      assert.equal(await page.getByRole("radio").count(), 8, "LanceDB and the seven remote databases");
      assert.equal(await page.getByLabel("Chroma endpoint").count(), 0, "LanceDB has nothing to set up");

      await page.getByRole("radio", { name: /Chroma/ }).check({ force: true });
      const endpoint = page.getByLabel("Chroma endpoint");
      await endpoint.waitFor();
      assert.equal(await endpoint.getAttribute("required"), "");
      await page.getByTestId("vector-db-switch-notice").getByText(/Documents embedded so far stay in LanceDB/)
        .waitFor();

      await endpoint.fill("http://127.0.0.1:8000/");
      await page.getByLabel("API header").fill("Authorization");
      await page.getByLabel("API key").fill("secret-token");
      await page.getByRole("button", { name: "Save" }).click();
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
      const key = page.getByLabel("API key");
      await key.waitFor();
      assert.equal(await key.inputValue(), "*".repeat(20));
      assert.equal(await page.getByLabel("Chroma endpoint").inputValue(), "http://127.0.0.1:8000");
      await page.getByLabel("Chroma endpoint").fill("http://127.0.0.1:8001");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Vector database preferences saved.").first().waitFor();
      assert.equal(app.deps.settings.value("ChromaApiKey"), "secret-token");
      assert.equal(app.deps.settings.value("ChromaEndpoint"), "http://127.0.0.1:8001");

      // Qdrant: its own fields, Chroma's gone.
      // The list scrolls: the option's row is clicked, as a person would after scrolling to it.
      await page.locator("label.provider-option", { has: page.locator('input[value="qdrant"]') }).click();
      assert.equal(await page.getByRole("radio", { name: /Qdrant/ }).isChecked(), true);
      const qdrant = page.getByLabel("Qdrant endpoint");
      await qdrant.waitFor();
      assert.equal(await qdrant.getAttribute("required"), "");
      assert.equal(await page.getByLabel("Chroma endpoint").count(), 0);
      await qdrant.fill("http://127.0.0.1:6333");
      await page.getByLabel("API key").fill("qdrant-key");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("In use now: Qdrant").waitFor();
      assert.equal(app.deps.settings.value("QdrantEndpoint"), "http://127.0.0.1:6333");
      assert.equal(app.deps.settings.value("QdrantApiKey"), "qdrant-key");
      assert.equal(app.deps.settings.value("ChromaApiKey"), "secret-token");

      // Back to LanceDB.
      await page.locator("label.provider-option", { has: page.locator('input[value="lancedb"]') }).click();
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("In use now: LanceDB").waitFor();
      assert.equal(app.deps.settings.value("VectorDB"), "lancedb");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: the workspace's hybrid search switch is on by default and saves off",
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
      const section = page.getByRole("region", { name: "Document retrieval", exact: true });
      await section.getByRole("button", { name: "Save" }).click();
      await page.locator(".Toastify").getByText("Workspace settings saved.").first().waitFor();
      const { body } = await app.json<{ workspace: { hybridSearch: boolean } }>("/api/workspace/atlas");
      assert.equal(body.workspace.hybridSearch, false);
      await page.reload();
      await hydrated(page);
      await page.getByRole("switch", { name: "Hybrid search" }).waitFor();
      assert.equal(await page.getByRole("switch", { name: "Hybrid search" }).isChecked(), false);
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
