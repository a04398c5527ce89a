import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Browser, Page } from "playwright-core";
import { seedDocument } from "../../server/documents/library_fixtures.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, pageErrors, watchErrors } from "./chromium.ts";

// Spec 02 §8's error catalogue: a failed call shows the spec's sentence, followed by the server's reason when it
// gave one (else the client's "The server answered N"). Each call is made to fail with page.route.

const LOGO_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 2"><rect width="8" height="2"/></svg>`;

/** A 500 answer: with `{ success: false, error }` when a reason is given, else with no body at all. */
const failWith = (error?: string) => (route: { fulfill: (options: object) => Promise<void> }) =>
  route.fulfill(
    error === undefined ? { status: 500, body: "" } : { status: 500, json: { success: false, error } },
  );

/** A fresh page (its own routes) that collects its errors. */
async function pageOf(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  return { page, errors: watchErrors(page) };
}

/** A toast's text, once shown. */
const toasted = (page: Page, text: string) =>
  page.locator(".Toastify").getByText(text, { exact: true }).waitFor();

Deno.test({
  name: "browser: failed calls show the spec's error texts, with the server's reason when it gave one",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Atlas" } });
    const link = await seedDocument(app.deps, "example.org-guide.html", {
      chunkSource: "link://https://example.org/guide",
    });
    const embedded = await app.json("/api/workspace/atlas/update-embeddings", {
      json: { adds: [link.location] },
    });
    assert.equal(embedded.body.message, null);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      // Appearance: the welcome messages' read failed, so their section says so and offers no form whose save
      // would replace them; the rest of the screen works. The logo upload and removal fail.
      {
        const { page, errors } = await pageOf(browser);
        await page.route("**/api/system/welcome-messages", failWith());
        await page.goto(`${url}/settings/appearance`);
        await hydrated(page);
        await page.getByRole("alert").getByText("Could not fetch welcome messages. The server answered 500", {
          exact: true,
        }).waitFor();
        assert.equal(await page.getByRole("button", { name: "Save messages" }).count(), 0);
        await page.getByText("Recommended size 800 x 200").waitFor();

        await page.getByLabel("Upload a logo for the light theme").setInputFiles({
          name: "acme.svg",
          mimeType: "image/svg+xml",
          buffer: Buffer.from(LOGO_SVG),
        });
        await toasted(page, "Image uploaded successfully.");
        await page.route("**/api/system/remove-logo*", failWith());
        await page.getByRole("button", { name: "Remove logo", exact: true }).click();
        await toasted(page, "Error removing logo! The server answered 500");
        await page.route("**/api/system/upload-logo*", failWith("The storage folder is full."));
        await page.getByLabel("Upload a logo for the dark theme").setInputFiles({
          name: "acme.svg",
          mimeType: "image/svg+xml",
          buffer: Buffer.from(LOGO_SVG),
        });
        await toasted(page, "Error uploading logo. The storage folder is full.");
        assert.deepEqual(pageErrors(errors), []);
        await page.close();
      }

      // Experimental features: the live sync switch.
      {
        const { page, errors } = await pageOf(browser);
        await page.route(
          "**/api/experimental/toggle-live-sync",
          failWith("The settings could not be written."),
        );
        await page.goto(`${url}/settings/beta-features`);
        await hydrated(page);
        await page.getByRole("switch", { name: "Keep watched documents up to date" }).click();
        await toasted(page, "Could not update status. The settings could not be written.");
        assert.deepEqual(pageErrors(errors), []);
        await page.close();
      }

      // Agent skills: a skill's switch, then a skill's configuration (the search provider).
      {
        const { page, errors } = await pageOf(browser);
        await page.route(
          "**/api/agents/settings",
          (route) =>
            route.request().method() === "POST"
              ? failWith("The settings could not be written.")(route)
              : route.fallback(),
        );
        await page.goto(`${url}/settings/agents`);
        await hydrated(page);
        await page.locator(".agent-skill").first().getByRole("switch").click();
        await toasted(page, "Could not update agent plugin status. The settings could not be written.");
        await page.getByLabel("Search provider").selectOption("searxng-engine");
        await page.getByRole("button", { name: "Save web search" }).click();
        await toasted(page, "Could not update agent plugin config. The settings could not be written.");
        assert.deepEqual(pageErrors(errors), []);
        await page.close();
      }

      // A workspace's documents: the watch toggle.
      {
        const { page, errors } = await pageOf(browser);
        await page.route("**/api/workspace/atlas/update-watch-status", failWith("The document is gone."));
        await page.goto(`${url}/workspace/atlas`);
        await hydrated(page);
        await page.getByRole("button", { name: /Documents \(1\)/ }).click();
        await page.locator(".doc-workspace").getByRole("button", { name: "Watch example.org-guide.html" })
          .click();
        await toasted(page, "Error setting watch status for document. The document is gone.");
        assert.deepEqual(pageErrors(errors), []);
        await page.close();
      }

      // A workspace's vector database tab: the vector count, and the instance's settings (its identifier).
      {
        const { page } = await pageOf(browser);
        await page.route("**/api/system/system-vectors*", failWith());
        await page.route("**/api/setup-complete", failWith());
        await page.goto(`${url}/workspace/atlas/settings/vector-database`);
        await hydrated(page);
        await page.getByTestId("vector-count").getByText("Could not find indexes. The server answered 500", {
          exact: true,
        }).waitFor();
        await page.locator(".ws-fact dd", {
          hasText: "Could not find setup information. The server answered 500",
        })
          .waitFor();
        await page.close();
      }

      // Instance settings: the saved settings every settings screen (and the sign-in) reads, and a provider's model
      // lookup.
      {
        const { page } = await pageOf(browser);
        await page.route("**/api/setup-complete", failWith());
        await page.goto(`${url}/settings/llm-preference`);
        await hydrated(page);
        await page.locator(".settings-page").getByRole("alert").getByText(
          "Could not find setup information. The server answered 500",
          { exact: true },
        ).waitFor();
        await page.goto(`${url}/login`);
        await hydrated(page);
        await page.getByRole("alert").getByText("Could not find setup information. The server answered 500", {
          exact: true,
        }).waitFor();
        await page.close();
      }
      {
        const { page, errors } = await pageOf(browser);
        await page.route("**/api/system/custom-models", failWith());
        await page.goto(`${url}/settings/llm-preference`);
        await hydrated(page);
        await page.locator("label.provider-option", { has: page.locator('input[value="groq"]') }).click();
        await page.locator('input[name="GroqApiKey"]').fill("gsk-key");
        await page.locator(".field-error", {
          hasText: "Error finding custom models. The server answered 500",
        })
          .waitFor();
        assert.deepEqual(pageErrors(errors), []);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});
