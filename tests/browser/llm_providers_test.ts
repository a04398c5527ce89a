import assert from "node:assert/strict";
import { LLM_PROVIDERS } from "../../shared/providers/llm_catalog.ts";
import { visibleFields } from "../../client/features/settings/provider_fields.ts";
import { createTestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

/**
 * Every provider of the table in the LLM preference form: its fields render with their labels and the
 * spec's defaults; a saved key shows as 20 asterisks and saving again leaves it as it was. Every lookup the
 * page makes goes to loopback: the hosted vendors point at a fake, the local servers' base paths are saved
 * (auto-detect, which would try other hosts, only runs without one) at a closed loopback port.
 */
Deno.test({
  name:
    "browser: every LLM provider's form renders its fields with the spec's defaults; a masked key round-trips",
  ...browserTestOptions,
  async fn() {
    await using fake = startFakeOpenAi({ models: ["fake-model"] });
    const endpoints = Object.fromEntries(LLM_PROVIDERS.map((row) => [row.id, fake.baseURL]));
    await using app = await createTestApp({ providerDeps: { endpoints } });
    const basePaths: Record<string, string> = {};
    for (const row of LLM_PROVIDERS.filter((row) => row.autoDetect && row.lookup?.basePathField)) {
      basePaths[row.lookup!.basePathField!] = row.lookup?.basePathMustContain || row.id === "lmstudio"
        ? "http://127.0.0.1:9/v1"
        : "http://127.0.0.1:9";
    }
    const saved = await app.json("/api/system/update-env", {
      json: { ...basePaths, LLMProvider: "ollama", VectorDB: "lancedb" },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/llm-preference`);
      await hydrated(page);
      await page.getByRole("heading", { name: "Ollama settings" }).waitFor();
      const choose = (id: string) =>
        page.locator("label.provider-option", { has: page.locator(`input[value="${id}"]`) }).click();
      for (const row of LLM_PROVIDERS) {
        await choose(row.id);
        await page.getByRole("heading", { name: `${row.name} settings` }).waitFor();
        for (const field of visibleFields(row.fields, {})) {
          const control = page.locator(`[name="${field.key}"]`);
          await control.first().waitFor({ state: "attached" });
          const label = (await page.locator(`label[for="setting-${field.key}"]`).textContent())?.trim() ?? "";
          assert.ok(
            label.length > 1 && !label.includes("settings."),
            `${row.id}.${field.key} label: ${label}`,
          );
          const lookedUp = field.type === "model" && !field.options;
          if (field.defaultValue !== undefined && !lookedUp && !basePaths[field.key]) {
            assert.equal(await control.first().inputValue(), field.defaultValue, `${row.id}.${field.key}`);
          }
        }
        // A field tied to another's value appears with it (Bedrock's session token).
        for (const field of row.fields.filter((field) => field.showWhen)) {
          assert.equal(await page.locator(`[name="${field.key}"]`).count(), 0, `${field.key} hidden`);
          await page.locator(`[name="${field.showWhen!.key}"]`).selectOption(field.showWhen!.equals);
          await page.locator(`[name="${field.key}"]`).waitFor();
        }
      }

      // A key saved, shown masked after a reload, and kept when the form is saved again.
      await choose("groq");
      await page.locator('input[name="GroqApiKey"]').fill("gsk-secret-key");
      await page.locator('select[name="GroqModelPref"] option[value="fake-model"]').waitFor({
        state: "attached",
      });
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.locator(".Toastify").getByText("LLM preferences saved.").waitFor();
      assert.equal(app.deps.settings.value("GroqApiKey"), "gsk-secret-key");
      await page.reload();
      await hydrated(page);
      const key = page.locator('input[name="GroqApiKey"]');
      await key.waitFor();
      assert.equal(await key.inputValue(), "*".repeat(20));
      await page.locator('select[name="GroqModelPref"] option[value="fake-model"]').waitFor({
        state: "attached",
      });
      assert.equal(fake.authorizations.at(-1), "Bearer gsk-secret-key", "the lookup used the stored key");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.locator(".Toastify").getByText("LLM preferences saved.").last().waitFor();
      assert.equal(app.deps.settings.value("GroqApiKey"), "gsk-secret-key", "the mask did not overwrite it");
      assert.equal(app.deps.settings.value("LLMProvider"), "groq");
      assert.deepEqual(errors.filter((error) => !/status of (400|502)/.test(error)), []);
    } finally {
      await browser.close();
    }
  },
});
