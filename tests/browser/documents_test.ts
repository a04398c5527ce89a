import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { documents, documentSyncQueues, workspaceDocuments } from "../../db/schema.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { seedDocument } from "../../server/documents/library_fixtures.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

/** Chrome reports every refused call as a console error; these ones the test provokes on purpose. */
const expectedFailure = (message: string) => /status of (400|404|413|500|502)/.test(message);

Deno.test({
  name: "browser: the document manager uploads with progress, and handles folders, search, pins and removal",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Library" } });
    const notes = await seedDocument(app.deps, "Field notes.txt");
    await seedDocument(app.deps, "Old minutes.txt");
    const link = await seedDocument(app.deps, "example.org-guide.html", {
      chunkSource: "link://https://example.org/guide",
    });
    const embedded = await app.json("/api/workspace/library/update-embeddings", {
      json: { adds: [link.location] },
    });
    assert.equal(embedded.body.message, null);
    const url = app.listen();
    const browser = await launchChromium();
    const folder = await Deno.makeTempDir();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/library`);
      await hydrated(page);
      await page.getByRole("button", { name: /Documents \(1\)/ }).click();
      const manager = page.locator(".doc-manager");
      const library = manager.locator(".doc-library");
      const mine = manager.locator(".doc-workspace");
      await library.getByText("Field notes.txt").waitFor();
      await mine.getByText("example.org-guide.html").waitFor();
      assert.equal(await library.getByText("In workspace").count(), 1, "the linked document is marked");

      // Upload a file large enough to watch its progress through a slowed-down connection.
      const big = join(folder, "freedonia atlas.txt");
      const sentence = "Freedonia exports cheese and violins from the port of Fredville. ";
      await Deno.writeTextFile(big, sentence.repeat(Math.ceil(300_000 / sentence.length)));
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 100 * 1024,
      });
      await page.getByTestId("document-input").setInputFiles(big);
      const row = manager.locator(".upload", { hasText: "freedonia atlas.txt" });
      await row.getByText(/Uploading [1-9]\d?%/).waitFor({ timeout: 20_000 });
      const percent = await row.locator("progress").evaluate((element) =>
        (element as HTMLProgressElement).value
      );
      assert.ok(percent > 0 && percent < 100, `the bar shows the progress (${percent}%)`);
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("documents-uploading.png", SCREENSHOTS)) });
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await row.getByText("Added").waitFor({ timeout: 60_000 });
      await page.locator(".document-list").getByText("freedonia atlas.txt").waitFor();
      await page.getByRole("button", { name: /Documents \(2\)/ }).waitFor();
      await library.getByText("freedonia atlas.txt").waitFor();

      // A file the server refuses ends as failed, with the server's own message.
      const binary = join(folder, "photo.bin");
      await Deno.writeFile(binary, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
      await page.getByTestId("document-input").setInputFiles(binary);
      const failed = manager.locator(".upload.failed", { hasText: "photo.bin" });
      await failed.waitFor();
      const reason = await failed.locator(".upload-error").innerText();
      assert.match(reason, /\.bin|not supported|text/i, reason);

      // A link the server cannot fetch shows its message under the field.
      await manager.getByPlaceholder(/Add a link/).fill("http://127.0.0.1:9/private");
      await manager.getByRole("button", { name: "Add link" }).click();
      const linkError = manager.locator(".doc-link-error");
      await linkError.waitFor();
      assert.ok((await linkError.innerText()).trim().length > 0);

      // Search narrows the library by title.
      await library.getByLabel("Search titles").fill("NOTES");
      await library.getByText("1 match").waitFor();
      assert.equal(await library.locator(".library-list .doc-row").count(), 1);
      await library.getByLabel("Search titles").fill("");
      await library.getByText("4 documents").waitFor();

      // A new folder, then move a document into it.
      await library.getByRole("button", { name: "New folder" }).click();
      await page.getByLabel("Folder name").fill("Archive 2026");
      await page.getByRole("button", { name: "Create folder" }).click();
      await page.getByText("Folder Archive-2026 was created.").waitFor();
      await library.getByText("No documents in this folder.").waitFor();
      await library.getByLabel("Folder", { exact: true }).selectOption("custom-documents");
      await library.locator(".doc-row", { hasText: "Field notes.txt" }).click();
      await library.getByText("1 selected").waitFor();
      await library.getByLabel("Move to…").selectOption("Archive-2026");
      await library.getByRole("button", { name: "Move", exact: true }).click();
      await page.getByText("1 document was moved to Archive-2026.").waitFor();
      await library.getByText("3 documents").waitFor();
      const [moved] = await app.deps.db.select().from(documents).where(
        eq(documents.title, "Field notes.txt"),
      );
      assert.equal(moved.folder, "Archive-2026");
      assert.equal(await Deno.stat(notes.path).then(() => true, () => false), false, "the file moved too");

      // Add a library document to the workspace.
      await library.locator(".doc-row", { hasText: "Old minutes.txt" }).click();
      await library.getByRole("button", { name: "Add to workspace" }).click();
      await page.getByText("1 document was added to the workspace.").waitFor();
      await mine.getByText("Old minutes.txt").waitFor();
      await page.getByRole("button", { name: /Documents \(3\)/ }).waitFor();

      // Pin: explained once, then the toggle shows the state.
      await mine.getByRole("button", { name: "Pin Old minutes.txt" }).click();
      await page.getByRole("dialog").getByText("What does pinning do?").waitFor();
      await page.getByRole("button", { name: "Got it" }).click();
      await mine.getByRole("button", { name: "Pin Old minutes.txt", pressed: true }).waitFor();
      const pinned = await app.deps.db.select().from(workspaceDocuments).where(
        eq(workspaceDocuments.pinned, true),
      );
      assert.equal(pinned.length, 1);

      // Watch a link document: a sync queue row appears.
      await mine.getByRole("button", { name: "Watch example.org-guide.html" }).click();
      await page.getByRole("button", { name: "Got it" }).click();
      await mine.getByRole("button", { name: "Watch example.org-guide.html", pressed: true }).waitFor();
      assert.equal((await app.deps.db.select().from(documentSyncQueues)).length, 1);
      assert.equal(await mine.getByRole("button", { name: /^Watch Old minutes/ }).count(), 0, "files cannot");

      await page.screenshot({ path: fileURLToPath(new URL("documents-manager.png", SCREENSHOTS)) });

      // Remove from the workspace only.
      await mine.getByRole("button", { name: "Remove Old minutes.txt from the workspace" }).click();
      await page.getByRole("button", { name: /Documents \(2\)/ }).waitFor();
      await library.locator(".doc-row", { hasText: "Old minutes.txt" }).waitFor();

      // Delete from the library, after confirming: gone everywhere.
      await library.locator(".doc-row", { hasText: "freedonia atlas.txt" }).click();
      await library.getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByRole("dialog").getByText("Delete 1 document?").waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByText("1 document was deleted.").waitFor();
      await page.getByRole("button", { name: /Documents \(1\)/ }).waitFor();
      await library.getByText("2 documents").waitFor();
      const left = await app.deps.db.select({ title: documents.title }).from(documents);
      assert.deepEqual(left.map((entry) => entry.title).sort(), [
        "Field notes.txt",
        "Old minutes.txt",
        "example.org-guide.html",
      ]);

      // Expanded, the manager takes the chat's place; the chat comes back.
      await manager.getByRole("button", { name: "Expand" }).click();
      assert.equal(await page.locator("section.chat").isVisible(), false);
      const [libraryBox, workspaceBox] = await Promise.all(
        [".doc-library", ".doc-workspace"].map((selector) => manager.locator(selector).boundingBox()),
      );
      assert.ok(
        libraryBox && workspaceBox && workspaceBox.x >= libraryBox.x + libraryBox.width - 1,
        "side by side when there is room",
      );
      await page.screenshot({ path: fileURLToPath(new URL("documents-expanded.png", SCREENSHOTS)) });
      await manager.getByRole("button", { name: "Show the chat" }).click();
      await page.locator("section.chat").waitFor();
      await manager.getByRole("button", { name: "Close the documents" }).click();
      await manager.waitFor({ state: "detached" });

      assert.deepEqual(errors.filter((message) => !expectedFailure(message)), []);
    } finally {
      await browser.close();
      await Deno.remove(folder, { recursive: true });
    }
  },
});

Deno.test({
  name: "browser: on a phone the document manager takes the screen, stacked, in the dark theme",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Pocket" } });
    for (
      const title of ["A very long document title that must not push the layout sideways.pdf", "Short.txt"]
    ) {
      await seedDocument(app.deps, title);
    }
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 740 }, colorScheme: "dark" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/pocket`);
      await hydrated(page);
      await page.getByRole("button", { name: /Documents \(0\)/ }).click();
      const manager = page.locator(".doc-manager");
      await manager.getByText("Short.txt").waitFor();
      assert.equal(await page.locator("section.chat").isVisible(), false, "the chat makes room");
      const boxes = await Promise.all(
        [".doc-library", ".doc-workspace"].map((selector) => manager.locator(selector).boundingBox()),
      );
      const [libraryBox, workspaceBox] = boxes;
      assert.ok(
        libraryBox && workspaceBox && libraryBox.y >= workspaceBox.y + workspaceBox.height - 1,
        "stacked, this workspace's documents first",
      );
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.equal(overflow, 0, "no sideways scrolling");
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("documents-phone-dark.png", SCREENSHOTS)) });
      await manager.getByRole("button", { name: "Close the documents" }).click();
      await page.locator("section.chat").waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
