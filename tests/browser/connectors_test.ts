import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { startFakeGithub } from "../../server/testing/fake_github.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

Deno.test({
  name:
    "browser: a GitHub repository imported from the Data connectors tab, followed across a reload, embedded and chatted with",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    const github = startFakeGithub({
      repos: [{
        owner: "octo",
        name: "tides",
        branches: {
          main: {
            "README.md": "# Tides\n\nThe tide tables of the harbour of Fredville.\n",
            "src/tides.ts":
              "// The high tide in Fredville is at 06:12 on Mondays.\nexport const highTide = '06:12';\n",
            "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
          },
          develop: { "README.md": "# Develop\n" },
        },
      }],
    });
    await using app = await configuredTestApp({
      llm: llm.baseURL,
      env: { LECTERN_CONNECTOR_PRIVATE_HOSTS: "127.0.0.1" },
    });
    await app.json("/api/workspace/new", { json: { name: "Harbour" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/harbour`);
      await hydrated(page);
      await page.getByRole("button", { name: /Documents \(0\)/ }).click();
      const manager = page.locator(".doc-manager");
      await manager.getByRole("tab", { name: "Data connectors" }).click();
      await manager.getByRole("radio", { name: /GitHub Repo/ }).waitFor();

      // The branch list is looked up once the URL is typed.
      await manager.getByLabel(/GitHub Repo URL/).fill(`${github.url}/octo/tides`);
      await manager.getByLabel(/GitHub Access Token/).click();
      const branch = manager.getByLabel(/^Branch/);
      await branch.locator("option", { hasText: "develop" }).waitFor({ state: "attached" });
      assert.equal(await branch.inputValue(), "main");

      // The files are held at the fake GitHub: the import is caught running.
      const release = github.pause();
      await manager.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Fetching all files for repo - this may take a while.").waitFor();
      const progress = manager.locator(".connector-import", { hasText: "octo/tides:main" });
      await progress.getByText("Importing…").waitFor();
      await progress.getByText(/found · 0 done/).waitFor();

      // A reload finds the import still running on the server, and follows it.
      await page.reload();
      await hydrated(page);
      await page.getByRole("button", { name: /Documents \(0\)/ }).click();
      await manager.getByRole("tab", { name: "Data connectors" }).click();
      await manager.locator(".connector-import", { hasText: "octo/tides:main" }).getByText("Importing…")
        .waitFor();
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("connectors-running.png", SCREENSHOTS)) });

      release();
      await page.getByText("2 files collected from octo/tides:main. Output folder is octo-tides-main.")
        .waitFor();
      // The library opens the new folder.
      const library = manager.locator(".doc-library");
      await library.getByText("src/tides.ts").waitFor();
      await library.getByText("README.md").waitFor();
      assert.equal(await library.getByText("logo.png").count(), 0, "the binary file was skipped");
      assert.equal(await library.getByLabel("Folder", { exact: true }).inputValue(), "octo-tides-main");

      // Embed both and ask about them: the fake model receives the file's text as context.
      await library.locator(".doc-row", { hasText: "src/tides.ts" }).click();
      await library.locator(".doc-row", { hasText: "README.md" }).click();
      await library.getByText("2 selected").waitFor();
      await library.getByRole("button", { name: "Add to workspace" }).click();
      await page.getByText("2 documents were added to the workspace.").waitFor();
      await page.getByRole("button", { name: /Documents \(2\)/ }).waitFor();
      await manager.getByRole("button", { name: "Close the documents" }).click();

      await page.getByLabel("Your message").fill("When is the high tide in Fredville?");
      await page.getByRole("button", { name: "Send" }).click();
      await page.locator(".message.assistant").getByText(/I saw [1-9]\d* context blocks/).waitFor();
      const asked = llm.chatRequests.at(-1)!;
      assert.match(asked.messages[0].content, /06:12/);

      // On a phone the tab fits the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole("button", { name: /Documents \(2\)/ }).click();
      await manager.getByRole("tab", { name: "Data connectors" }).click();
      await manager.getByRole("radio", { name: /GitLab Repo/ }).click();
      await manager.getByLabel(/GitLab Repo URL/).waitFor();
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.ok(overflow <= 1, `no sideways scrolling on a phone (${overflow}px)`);
      await page.screenshot({ path: fileURLToPath(new URL("connectors-phone.png", SCREENSHOTS)) });

      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await github.close();
    }
  },
});
