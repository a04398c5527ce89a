import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { configuredTestApp, createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { seedDocument } from "../../server/documents/library_fixtures.ts";
import { createLogger } from "../../server/log.ts";
import type { LogLevel } from "../../server/config.ts";
import { signIn } from "./sessions.ts";
import {
  browserTestOptions,
  hydrated,
  launchChromium,
  pageErrors,
  SCREENSHOTS,
  watchErrors,
} from "./chromium.ts";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
type Scheme = "light" | "dark";
const LAYOUTS = [
  { name: "desktop-light", viewport: DESKTOP, scheme: "light" },
  { name: "desktop-dark", viewport: DESKTOP, scheme: "dark" },
  { name: "phone-light", viewport: PHONE, scheme: "light" },
  { name: "phone-dark", viewport: PHONE, scheme: "dark" },
] as const;

const FREEDONIA =
  "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.\n\n" +
  "Freedonia exports cheese and violins. Its national bird is the grey heron.";

async function screenshot(page: Page, name: string) {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: fileURLToPath(new URL(`first-use-${name}.png`, SCREENSHOTS)) });
}

async function layout(page: Page, viewport: { width: number; height: number }, scheme: Scheme) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
}

/** Every call the server refused (401 or 403): a role must not be offered what it cannot do. */
function watchRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 401 || response.status() === 403) {
      refused.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    }
  });
  return refused;
}

/** Records, in the page, the most toasts of each kind that were on screen together. */
async function sampleToasts(page: Page) {
  await page.evaluate(() => {
    const most = { success: 0, error: 0, all: 0 };
    (globalThis as unknown as { mostToasts: typeof most }).mostToasts = most;
    const sample = () => {
      const count = (selector: string) =>
        Array.from(document.querySelectorAll(selector)).filter((toast) => !toast.className.includes("exit"))
          .length;
      most.success = Math.max(most.success, count(".Toastify__toast--success"));
      most.error = Math.max(most.error, count(".Toastify__toast--error"));
      most.all = Math.max(most.all, count(".Toastify__toast"));
    };
    new MutationObserver(sample).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  return () =>
    page.evaluate(() =>
      (globalThis as unknown as { mostToasts: { success: number; error: number; all: number } }).mostToasts
    );
}

/** Asserts that no toast on screen overlaps `target` (the Send button), and that there was one to check. */
async function assertToastsClear(target: Locator, page: Page, what: string) {
  // Toasts bounce in from below the screen: their place is known once they have come to rest on it.
  await page.waitForFunction(() => {
    const toasts = Array.from(document.querySelectorAll(".Toastify__toast"));
    return toasts.length > 0 && toasts.every((toast) => {
      const box = toast.getBoundingClientRect();
      return !/-enter|-exit/.test(toast.className) && box.top >= 0 && box.bottom <= globalThis.innerHeight;
    });
  });
  const button = await target.boundingBox();
  assert.ok(button, `${what}: the Send button is on screen`);
  const toasts = await page.locator(".Toastify__toast").evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return { x: box.x, y: box.y, width: box.width, height: box.height, text: element.textContent ?? "" };
    })
  );
  assert.ok(toasts.length > 0, `${what}: a toast is showing`);
  for (const toast of toasts) {
    const apart = toast.x + toast.width <= button.x || button.x + button.width <= toast.x ||
      toast.y + toast.height <= button.y || button.y + button.height <= toast.y;
    assert.ok(apart, `${what}: the toast "${toast.text}" covers the Send button`);
  }
}

Deno.test({
  name:
    "browser first use: a default user reads the workspace's documents and is offered no call she may not make; admin and manager keep the manager",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Team" } });
    await app.json("/api/workspace/new", { json: { name: "Empty" } });
    const handbook = await seedDocument(app.deps, "Staff handbook.txt");
    const guide = await seedDocument(app.deps, "example.org-guide.html", {
      chunkSource: "link://https://example.org/guide",
    });
    const embedded = await app.json("/api/workspace/team/update-embeddings", {
      json: { adds: [handbook.location, guide.location] },
    });
    assert.equal(embedded.body.message, null);
    const pinned = await app.json("/api/workspace/team/update-pin", {
      json: { docPath: handbook.location, pinStatus: true },
    });
    assert.equal(pinned.status, 200);
    const admin = await multiUserInstance(app);
    const dora = await addUser(app, admin, "dora", "default");
    const manny = await addUser(app, admin, "manny", "manager");
    for (const slug of ["team", "empty"]) {
      const { body } = await app.json<{ workspace: { id: number } }>(
        `/api/workspace/${slug}`,
        bearer(admin.token),
      );
      const members = await app.json(`/api/admin/workspaces/${body.workspace.id}/update-users`, {
        ...bearer(admin.token),
        json: { userIds: [dora.user.id] },
      });
      assert.equal(members.status, 200, JSON.stringify(members.body));
    }
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP, colorScheme: "light" });
      const errors = watchErrors(page);
      const refused = watchRefusals(page);
      await signIn(page, url, dora);
      await page.goto(`${url}/workspace/team`);
      await hydrated(page);
      await page.getByRole("button", { name: "Documents (2)" }).click();
      const panel = page.getByRole("region", { name: "Documents", exact: true });
      await panel.getByText("Staff handbook.txt").waitFor();
      await panel.getByText("example.org-guide.html").waitFor();
      const unusable = {
        "the file chooser": panel.getByRole("button", { name: "Choose files" }),
        "the file input": page.getByTestId("document-input"),
        "the link field": panel.getByPlaceholder(/Add a link/),
        "Add link": panel.getByRole("button", { name: "Add link" }),
        "Pin": panel.getByRole("button", { name: /^Pin / }),
        "Watch": panel.getByRole("button", { name: /^Watch / }),
        "×": panel.getByRole("button", { name: /from the workspace$/ }),
        "New folder": panel.getByRole("button", { name: "New folder" }),
        "the library": panel.getByRole("heading", { name: "Library" }),
        "Expand": panel.getByRole("button", { name: "Expand" }),
      };
      for (const [name, control] of Object.entries(unusable)) {
        assert.equal(await control.count(), 0, `a default user is not offered ${name}`);
      }
      await panel.getByText("Only the workspace's editors and owners can add or remove them.", {
        exact: false,
      }).waitFor();
      assert.equal(await panel.getByText("Pinned", { exact: true }).count(), 1, "the pin shows as a mark");
      // Long enough for any call the panel would make to have been answered.
      await page.waitForTimeout(1000);
      assert.deepEqual(refused, [], "no call was refused");
      assert.equal(await page.locator(".Toastify__toast--error").count(), 0, "no error toast");
      assert.equal(await page.getByText("You do not have permission").count(), 0);
      assert.equal(await panel.getByText("Loading…").count(), 0);
      await screenshot(page, "documents-default-desktop-light");

      await layout(page, PHONE, "dark");
      await panel.getByText("Staff handbook.txt").waitFor();
      assert.equal(
        await page.locator("section.chat").isVisible(),
        false,
        "on a phone the list takes the screen",
      );
      assert.equal(
        await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        ),
        0,
        "no sideways scrolling",
      );
      await screenshot(page, "documents-default-phone-dark");
      await panel.getByRole("button", { name: "Close the documents" }).click();
      await page.locator("section.chat").waitFor();

      // An empty workspace does not tell her to add documents she cannot add.
      await page.goto(`${url}/workspace/empty`);
      await hydrated(page);
      await page.getByText("Its editors and owners can add some so answers can cite them.", { exact: false })
        .waitFor();
      assert.equal(await page.getByText("Add documents with the Documents button").count(), 0);
      assert.deepEqual(refused, [], "no call was refused");

      for (const [name, session] of [["manager", manny], ["admin", admin]] as const) {
        await signIn(page, url, session);
        await page.goto(`${url}/workspace/team`);
        await hydrated(page);
        await page.getByRole("button", { name: "Documents (2)" }).click();
        const manager = page.getByRole("region", { name: "Documents", exact: true });
        for (
          const control of [
            manager.getByRole("button", { name: "Choose files" }).first(),
            manager.getByRole("button", { name: "Add link" }),
            manager.getByRole("button", { name: "New folder" }),
            manager.getByRole("button", { name: "Pin Staff handbook.txt" }),
            manager.getByRole("button", { name: "Watch example.org-guide.html" }),
            manager.getByRole("button", { name: "Remove Staff handbook.txt from the workspace" }),
          ]
        ) {
          await control.waitFor();
        }
        await manager.locator(".doc-library").getByText("2 documents").waitFor();
        assert.deepEqual(refused, [], `no call was refused for the ${name}`);
      }
      await screenshot(page, "documents-admin-phone-dark");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

const PDF = new URL("../fixtures/documents/pdflatex-4-pages.pdf", import.meta.url);
const LONG_PDF_NAME = "federal-register-2020-17221-interim-final-rule-on-quarterly-emission-reports.pdf";

Deno.test({
  name:
    "browser first use: a PDF citation with a long file name shortens the name, never its pages, on desktop and phone",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply(() => ({ chunks: ["It is filler text."] }));
    await using app = await createTestApp();
    await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
    await app.json("/api/workspace/new", { json: { name: "Papers" } });
    // Small chunks, so the four pages make several chunks and a question can cite more than one page.
    await app.json("/api/admin/system-preferences", {
      json: { text_splitter_chunk_size: 200, text_splitter_chunk_overlap: 0 },
    });
    const form = new FormData();
    form.append("file", new File([await Deno.readFile(PDF)], LONG_PDF_NAME));
    const uploaded = await app.json("/api/workspace/papers/upload-and-embed", { method: "POST", body: form });
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));

    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP, colorScheme: "light" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/papers`);
      await hydrated(page);
      await page.getByLabel("Your message").fill("Hello, here is some text without a meaning");
      await page.getByLabel("Your message").press("Enter");
      const answer = page.locator(".message.assistant").last();
      await answer.getByText("It is filler text.").waitFor();
      const chip = answer.getByRole("button", { name: /^federal-register-2020-17221/ });
      for (const { name, viewport, scheme } of LAYOUTS) {
        await layout(page, viewport, scheme);
        const fit = await chip.evaluate((button) => {
          const pages = button.querySelector(".citation-pages");
          const bubble = button.closest(".message");
          if (!pages || !bubble) return null;
          const outer = button.getBoundingClientRect();
          const inner = pages.getBoundingClientRect();
          const around = bubble.getBoundingClientRect();
          return {
            text: pages.textContent ?? "",
            inside: inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 &&
              inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5,
            width: inner.width,
            clipped: pages.scrollWidth > pages.clientWidth,
            inBubble: outer.right <= around.right + 0.5,
          };
        });
        assert.ok(fit, `${name}: the chip names its pages`);
        assert.match(fit.text, /^pp?\. \d+(, \d+)*$/, `${name}: ${fit.text}`);
        assert.ok(fit.width > 0 && fit.inside, `${name}: the pages sit inside the chip`);
        assert.equal(fit.clipped, false, `${name}: the pages are not cut`);
        assert.ok(fit.inBubble, `${name}: the chip stays inside the answer`);
        assert.equal(
          await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          ),
          0,
          `${name}: no sideways scrolling`,
        );
        await screenshot(page, `citation-${name}`);
      }
      // The whole name is still the button's name and its tooltip.
      assert.equal(await chip.getAttribute("title"), LONG_PDF_NAME);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser first use: four files at once give one success toast and one error toast, none over the Send button",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Inbox" } });
    const folder = await Deno.makeTempDir();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const files = async (round: string) => {
        const paths = [];
        for (const name of ["minutes", "budget", "roadmap"]) {
          const path = join(folder, `${name}-${round}.txt`);
          await Deno.writeTextFile(path, `The ${name} of the ${round} round. Freedonia exports cheese.`);
          paths.push(path);
        }
        const unreadable = join(folder, `photo-${round}.bin`);
        await Deno.writeFile(unreadable, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
        return [...paths.slice(0, 2), unreadable, paths[2]];
      };
      const page = await browser.newPage({ viewport: DESKTOP, colorScheme: "dark" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/inbox`);
      await hydrated(page);
      const most = await sampleToasts(page);
      const send = page.getByRole("button", { name: "Send" });
      await page.getByRole("button", { name: "Documents (0)" }).click();
      const manager = page.locator(".doc-manager");
      const success = page.locator(".Toastify__toast--success");
      const failure = page.locator(".Toastify__toast--error");

      // Desktop: the manager beside the chat, whose Send button stays clear.
      await page.getByTestId("document-input").setInputFiles(await files("first"));
      await manager.locator(".upload.done").nth(2).waitFor({ timeout: 30_000 });
      await manager.locator(".upload.failed").waitFor();
      await success.first().waitFor();
      assert.deepEqual(await most(), { success: 1, error: 1, all: 2 }, "one toast of each kind");
      await success.getByText("3 documents were added to the workspace.").waitFor();
      await failure.getByText(/^photo-first\.bin could not be added: .+/).waitFor();
      await assertToastsClear(send, page, "desktop");
      await screenshot(page, "uploads-desktop-dark");

      // Phone: the manager takes the screen; closed, the chat's Send button is not under the toasts.
      await layout(page, PHONE, "light");
      await page.getByTestId("document-input").setInputFiles(await files("second"));
      await manager.locator(".upload.done").nth(5).waitFor({ timeout: 30_000 });
      await manager.locator(".upload.failed").nth(1).waitFor();
      await failure.getByText(/^photo-second\.bin could not be added: .+/).waitFor();
      await success.getByText("3 documents were added to the workspace.").waitFor();
      await manager.getByRole("button", { name: "Close the documents" }).click();
      await send.waitFor();
      await assertToastsClear(send, page, "phone");
      const stack = await most();
      assert.ok(stack.success <= 1 && stack.error <= 1, `one toast of each kind: ${JSON.stringify(stack)}`);
      await screenshot(page, "uploads-phone-light");
      assert.deepEqual(errors.filter((message) => !/status of 400/.test(message)), []);
    } finally {
      await browser.close();
      await Deno.remove(folder, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "browser first use: a stopped answer shows its mark and citations at once and after a reload; the server logs no error",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply(() => ({
      chunks: ["Freedonia ", "exports ", ...Array.from({ length: 40 }, () => "cheese "), "THE END"],
      delayMs: 150,
    }));
    const lines: { level: LogLevel; line: string }[] = [];
    await using app = await createTestApp({
      log: createLogger("debug", (line, level) => lines.push({ level, line })),
    });
    await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
    await app.json("/api/workspace/new", { json: { name: "Atlas" } });
    const facts = await seedDocument(app.deps, "freedonia.txt", { text: FREEDONIA });
    const embedded = await app.json("/api/workspace/atlas/update-embeddings", {
      json: { adds: [facts.location] },
    });
    assert.equal(embedded.body.message, null);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP, colorScheme: "light" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/atlas`);
      await hydrated(page);
      await page.getByLabel("Your message").fill("What is the capital of Freedonia?");
      await page.getByRole("button", { name: "Send" }).click();
      const answer = page.locator(".message.assistant").last();
      await answer.getByText("Freedonia exports cheese").waitFor();
      await page.getByRole("button", { name: "Stop" }).click();
      const before = page.url();
      await answer.getByText("Stopped", { exact: true }).waitFor();
      // The citations come to the same page: no reload, no navigation.
      await answer.getByRole("button", { name: "freedonia.txt" }).waitFor();
      assert.equal(page.url(), before);
      const partial = await answer.locator(".message-text").innerText();
      assert.match(partial, /^Freedonia exports cheese/);
      assert.doesNotMatch(partial, /THE END/);
      await page.getByRole("button", { name: "Regenerate" }).waitFor();
      await screenshot(page, "stopped-desktop-light");

      await page.reload();
      await hydrated(page);
      const reloaded = page.locator(".message.assistant").last();
      await reloaded.getByText("Stopped", { exact: true }).waitFor();
      await reloaded.getByRole("button", { name: "freedonia.txt" }).waitFor();
      assert.equal(await reloaded.locator(".message-text").innerText(), partial, "the same text as before");
      const logged = lines.filter((entry) => entry.level === "error").map((entry) => entry.line);
      assert.deepEqual(logged, [], "a stopped answer is not a server error");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser first use: files refused together are named in one toast with the server's sentences, clear of the composer, on a phone",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Pictures" } });
    const folder = await Deno.makeTempDir();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const noise = new Uint8Array(4096).map((_, index) => (index * 7919 + 13) % 256);
      const files: [string, string | Uint8Array][] = [
        ["setup.exe", noise],
        ["notes.txt", "Readable notes: these become a file of the thread."],
        ["archive.bin", noise],
        ["report.pdf", "not a PDF"],
        ["empty.txt", ""],
      ];
      const paths = [];
      for (const [name, content] of files) {
        paths.push(join(folder, name));
        if (typeof content === "string") await Deno.writeTextFile(paths.at(-1)!, content);
        else await Deno.writeFile(paths.at(-1)!, content);
      }
      const page = await browser.newPage({ viewport: PHONE, colorScheme: "dark" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/pictures`);
      await hydrated(page);
      const most = await sampleToasts(page);
      await page.getByTestId("file-input").setInputFiles(paths);
      const expected = [
        "setup.exe was not attached: File extension .exe not supported for parsing and cannot be assumed as text file type.",
        "archive.bin was not attached: File extension .bin not supported for parsing and cannot be assumed as text file type.",
        // The server's sentence names the file: it is shown as it is.
        "report.pdf is not a valid PDF file or is damaged: Invalid PDF structure.",
        "No text content found in empty.txt.",
      ];
      const toast = page.locator(".Toastify__toast--error");
      await toast.getByText(expected.at(-1)!, { exact: false }).waitFor();
      assert.deepEqual(await most(), { success: 0, error: 1, all: 1 }, "one toast names them all");
      const lines = (await toast.innerText()).split("\n").filter((line) => line.trim());
      assert.deepEqual(lines, expected, "a line each, in the order given");
      // The readable one is attached to the thread.
      await page.getByRole("list", { name: "Files in this thread's context" }).getByText("notes.txt")
        .waitFor();
      await assertToastsClear(page.getByRole("button", { name: "Send" }), page, "phone");
      await screenshot(page, "refused-files-phone-dark");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
      await Deno.remove(folder, { recursive: true });
    }
  },
});

Deno.test({
  name: "browser first use: on a phone the document lists show long names whole beside their buttons",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Reports" } });
    const names = ["example.org-guide-to-quarterly-reports.html", "Minutes of the general meeting 2026.txt"];
    const guide = await seedDocument(app.deps, names[0], { chunkSource: "link://https://example.org/guide" });
    const minutes = await seedDocument(app.deps, names[1]);
    const embedded = await app.json("/api/workspace/reports/update-embeddings", {
      json: { adds: [guide.location, minutes.location] },
    });
    assert.equal(embedded.body.message, null);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: PHONE, colorScheme: "light" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/reports`);
      await hydrated(page);
      await page.getByRole("button", { name: "Documents (2)" }).click();
      const manager = page.locator(".doc-manager");
      await manager.getByRole("button", { name: `Watch ${names[0]}` }).waitFor();
      await manager.locator(".doc-library").getByText("2 documents").waitFor();
      for (const scheme of ["light", "dark"] as const) {
        await layout(page, PHONE, scheme);
        for (const list of [".doc-workspace", ".doc-library"]) {
          for (const name of names) {
            const title = manager.locator(`${list} .doc-title`, { hasText: name });
            const fit = await title.evaluate((element) => {
              const row = element.closest(".doc-row")!.getBoundingClientRect();
              const box = element.getBoundingClientRect();
              return {
                whole: element.scrollHeight <= element.clientHeight + 1 &&
                  element.scrollWidth <= element.clientWidth,
                inRow: box.top >= row.top - 0.5 && box.bottom <= row.bottom + 0.5,
              };
            });
            assert.ok(fit.whole, `${scheme} ${list}: "${name}" is shown whole`);
            assert.ok(fit.inRow, `${scheme} ${list}: "${name}" stays in its row`);
          }
        }
        await screenshot(page, `document-names-phone-${scheme}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
