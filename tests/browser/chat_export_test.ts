import assert from "node:assert/strict";
import { workspaceChats, workspaceThreads } from "../../db/schema.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

const answer = (text: string) =>
  JSON.stringify({ text, sources: [], type: "chat", attachments: [], metrics: {} });

Deno.test({
  name:
    "browser: the chat header's Export downloads the thread's chat as a PDF and as Markdown; an empty chat offers none",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
      json: { name: "Harbour" },
    });
    const workspace = made.body.workspace;
    const [thread] = await app.deps.db.insert(workspaceThreads).values({
      name: "Tides",
      slug: "tides-thread",
      workspaceId: workspace.id,
    }).returning();
    await app.deps.db.insert(workspaceChats).values({
      workspaceId: workspace.id,
      threadId: thread.id,
      prompt: "When is high tide?",
      response: answer("High tide is at 7:42."),
    });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      const errors = watchErrors(page);
      // The default thread has no chats: nothing to export.
      await page.goto(`${url}/workspace/${workspace.slug}`);
      await hydrated(page);
      await page.getByText("Documents", { exact: false }).first().waitFor();
      await page.waitForLoadState("networkidle");
      assert.equal(
        await page.getByRole("button", { name: "Export" }).count(),
        0,
        "an empty chat offers no export",
      );

      await page.goto(`${url}/workspace/${workspace.slug}/t/${thread.slug}`);
      await hydrated(page);
      await page.getByText("High tide is at 7:42.").waitFor();
      const exportButton = page.getByRole("button", { name: "Export" });
      await exportButton.click();
      const menu = page.getByRole("group", { name: "Export this chat as" });
      for (const name of ["PDF", "Markdown", "Plain text", "JSON", "HTML"]) {
        assert.equal(await menu.getByRole("button", { name, exact: true }).isVisible(), true, name);
      }
      await page.screenshot({ path: new URL("chat-export-menu.png", SCREENSHOTS).pathname });
      const [pdf] = await Promise.all([
        page.waitForEvent("download"),
        menu.getByRole("button", { name: "PDF", exact: true }).click(),
      ]);
      assert.match(pdf.suggestedFilename(), /^Lectern Export - \d{4}-\d{2}-\d{2}\.pdf$/);
      const pdfBytes = await Deno.readFile(await pdf.path());
      assert.equal(new TextDecoder().decode(pdfBytes.slice(0, 5)), "%PDF-");
      await page.getByText("The chat was exported as PDF.").waitFor();

      await exportButton.click();
      const [markdown] = await Promise.all([
        page.waitForEvent("download"),
        menu.getByRole("button", { name: "Markdown", exact: true }).click(),
      ]);
      assert.match(markdown.suggestedFilename(), /\.md$/);
      const text = await Deno.readTextFile(await markdown.path());
      assert.ok(text.includes("**Thread:** Tides"), text);
      assert.ok(text.includes("When is high tide?") && text.includes("High tide is at 7:42."), text);

      // On a phone the header and its menu stay inside the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await exportButton.click();
      const box = await menu.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the menu fits: ${JSON.stringify(box)}`);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: new URL("chat-export-phone-dark.png", SCREENSHOTS).pathname });
      await page.keyboard.press("Escape");
      assert.deepEqual(errors, [], "console errors");
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
