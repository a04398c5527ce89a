import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { ParsedFilesAnswer } from "../../shared/api/attachments.ts";
import { createTestApp, genericOpenAiSettings, type TestApp } from "../../server/testing/test_app.ts";
import {
  type ChatCompletionRequest,
  type FakeOpenAi,
  startFakeOpenAi,
} from "../../server/testing/fake_openai.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { signIn } from "./sessions.ts";
import {
  browserTestOptions,
  hydrated,
  launchChromium,
  pageErrors,
  SCREENSHOTS,
  watchErrors,
} from "./chromium.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const NOTES = "The secret word of the lighthouse keeper is PELICAN.";
const GUIDE = "# Harbour guide\n\nThe harbour gates open at NINE in the morning.";

/** An instance whose model is the fake (context window 4,096 tokens). */
async function instance(llm: FakeOpenAi) {
  const app = await createTestApp();
  const settings = await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  assert.equal(settings.status, 200, JSON.stringify(settings.body));
  return app;
}

async function newWorkspace(app: TestApp, name: string, session?: Session) {
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    ...(session ? bearer(session.token) : {}),
    json: { name },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.workspace;
}

/** The system prompt of the model's last call: where the thread's files go. */
function lastPrompt(llm: FakeOpenAi): string {
  const request: ChatCompletionRequest | undefined = llm.chatRequests.at(-1);
  assert.ok(request, "the model was called");
  return request.messages.map((message) => String(message.content)).join("\n");
}

async function ask(page: Page, text: string, llm: FakeOpenAi) {
  const before = llm.chatRequests.length;
  await page.getByLabel("Your message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await page.locator(".message.assistant").getByText(`Answered: ${text}`).waitFor();
  assert.equal(llm.chatRequests.length, before + 1, "one call to the model");
}

const chips = (page: Page) => page.getByRole("list", { name: "Files in this thread's context" });
const chip = (page: Page, name: string) => chips(page).getByRole("listitem").filter({ hasText: name });

async function listed(app: TestApp, slug: string, options: { threadSlug?: string; session?: Session } = {}) {
  const query = options.threadSlug ? `?threadSlug=${options.threadSlug}` : "";
  const answer = await app.json(
    `/api/workspace/${slug}/parsed-files${query}`,
    options.session ? bearer(options.session.token) : {},
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return ParsedFilesAnswer.parse(answer.body).files.map((file) => file.title);
}

async function screenshot(page: Page, name: string) {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: fileURLToPath(new URL(`attachments-${name}.png`, SCREENSHOTS)) });
}

async function writeFiles(folder: string, files: Record<string, string | Uint8Array>) {
  const paths: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    paths[name] = join(folder, name);
    if (typeof content === "string") await Deno.writeTextFile(paths[name], content);
    else await Deno.writeFile(paths[name], content);
  }
  return paths;
}

Deno.test({
  name:
    "browser attachments: a .txt and a .md become chips of the thread, reach the prompt, leave it when removed and stay after a reload",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply((request) => ({ chunks: ["Answered: ", String(request.messages.at(-1)?.content ?? "")] }));
    await using app = await instance(llm);
    const { slug } = await newWorkspace(app, "Harbour");
    const folder = await Deno.makeTempDir();
    const files = await writeFiles(folder, {
      "notes.txt": NOTES,
      "guide.md": GUIDE,
      // Random bytes under a name no parser knows: the server refuses it with its own sentence.
      "blob.bin": new Uint8Array(4096).map((_, index) => (index * 7919 + 13) % 256),
      // Far more than the 4,096-token context window.
      "long.txt": Array.from({ length: 6000 }, (_, index) => `word${index}`).join(" "),
    });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP, colorScheme: "light" });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      assert.equal(await chips(page).count(), 0, "no chips before any file");

      await page.getByTestId("file-input").setInputFiles([files["notes.txt"], files["guide.md"]]);
      await chip(page, "notes.txt").getByText(/^\d+ tokens?$/).waitFor();
      await chip(page, "guide.md").getByText(/^\d+ tokens?$/).waitFor();
      assert.equal(await chips(page).getByRole("listitem").count(), 2);
      assert.deepEqual(await listed(app, slug), ["notes.txt", "guide.md"], "kept for the default thread");
      await page.locator(".composer-context").getByText(/^Attached files fill \d+ of the model's 4,096/)
        .waitFor();
      assert.equal(await page.locator(".composer-context.over").count(), 0);
      // Nothing of the kind sits on the images' list: the files are not sent with one message.
      assert.equal(await page.getByRole("list", { name: "Images to send" }).count(), 0);

      await ask(page, "What is the secret word?", llm);
      let prompt = lastPrompt(llm);
      assert.ok(prompt.includes(NOTES), "the .txt reached the prompt");
      assert.ok(prompt.includes("The harbour gates open at NINE"), "the .md reached the prompt");
      // The files stay: they belong to the thread, not to the message.
      assert.equal(await chips(page).getByRole("listitem").count(), 2);

      await page.getByRole("button", { name: "Remove notes.txt" }).click();
      await chip(page, "notes.txt").waitFor({ state: "detached" });
      assert.deepEqual(await listed(app, slug), ["guide.md"]);
      await ask(page, "And when do the gates open?", llm);
      prompt = lastPrompt(llm);
      assert.ok(!prompt.includes("PELICAN"), "a removed file leaves the prompt");
      assert.ok(prompt.includes("The harbour gates open at NINE"), "the other file stays in it");

      await page.reload();
      await hydrated(page);
      await chip(page, "guide.md").getByText(/^\d+ tokens?$/).waitFor();
      assert.equal(await chip(page, "notes.txt").count(), 0);

      // A file no parser reads is refused with the server's sentence, in one toast, and leaves no chip.
      await page.getByTestId("file-input").setInputFiles([files["blob.bin"]]);
      await page.locator(".Toastify__toast--error").getByText(
        "blob.bin was not attached: File extension .bin not supported for parsing and cannot be assumed as text file type.",
      ).waitFor();
      await page.waitForFunction(() => !document.querySelector(".composer-file.busy"));
      assert.equal(await chip(page, "blob.bin").count(), 0);
      assert.deepEqual(await listed(app, slug), ["guide.md"]);

      // Files over the context window are said to be so.
      await page.getByTestId("file-input").setInputFiles([files["long.txt"]]);
      await chip(page, "long.txt").getByText(/^[\d,]+ tokens$/).waitFor();
      const warning = page.locator(".composer-context.over");
      await warning.getByText(/more than the model's 4,096: the last ones are left out of answers/).waitFor();
      assert.equal(await warning.getAttribute("role"), "alert");
      await screenshot(page, "desktop-light-over");
      await page.getByRole("button", { name: "Remove long.txt" }).click();
      await chip(page, "long.txt").waitFor({ state: "detached" });
      assert.equal(await warning.count(), 0, "the warning goes with the file");

      // A named thread has its own files: the default thread's are not there.
      const thread = await app.json<{ thread: { slug: string } }>(`/api/workspace/${slug}/thread/new`, {
        method: "POST",
      });
      const threadSlug = thread.body.thread.slug;
      await page.goto(`${url}/workspace/${slug}/t/${threadSlug}`);
      await hydrated(page);
      await page.getByLabel("Your message").waitFor();
      await page.getByTestId("file-input").setInputFiles([files["notes.txt"]]);
      await chip(page, "notes.txt").getByText(/^\d+ tokens?$/).waitFor();
      assert.equal(await chip(page, "guide.md").count(), 0);
      assert.deepEqual(await listed(app, slug, { threadSlug }), ["notes.txt"]);
      assert.deepEqual(await listed(app, slug), ["guide.md"]);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
      await Deno.remove(folder, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "browser attachments: a default user has no Add to workspace; an admin's makes the file a workspace document",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await instance(llm);
    const admin = await multiUserInstance(app);
    const dora = await addUser(app, admin, "dora", "default");
    const { slug, id } = await newWorkspace(app, "Team", admin);
    const members = await app.json(`/api/admin/workspaces/${id}/update-users`, {
      ...bearer(admin.token),
      json: { userIds: [dora.user.id] },
    });
    assert.equal(members.status, 200, JSON.stringify(members.body));
    const folder = await Deno.makeTempDir();
    const files = await writeFiles(folder, { "notes.txt": NOTES, "report.md": GUIDE });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      // Dora, on a dark phone: her file is a chip she can remove, with nothing that would embed it.
      const phone = await browser.newContext({ viewport: PHONE, colorScheme: "dark", hasTouch: true });
      const page = await phone.newPage();
      const errors = watchErrors(page);
      await signIn(page, url, dora);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      await page.getByTestId("file-input").setInputFiles([files["notes.txt"]]);
      await chip(page, "notes.txt").getByText(/^\d+ tokens?$/).waitFor();
      // The role is known once the Documents button is usable.
      await page.locator(".chat-header .button:not([disabled])").waitFor();
      assert.equal(await page.getByRole("button", { name: "Add to workspace" }).count(), 0);
      await page.getByRole("button", { name: "Remove notes.txt" }).waitFor();
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.equal(overflow, 0, "no sideways scrolling");
      const box = await chip(page, "notes.txt").boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, "the chip fits the screen");
      await screenshot(page, "default-phone-dark");
      assert.deepEqual(await listed(app, slug, { session: dora }), ["notes.txt"]);
      assert.deepEqual(errors, []);

      // The admin: Add to workspace turns her file into a document of the workspace.
      const desktop = await browser.newContext({ viewport: DESKTOP, colorScheme: "dark" });
      const adminPage = await desktop.newPage();
      const adminErrors = watchErrors(adminPage);
      await signIn(adminPage, url, admin);
      await adminPage.goto(`${url}/workspace/${slug}`);
      await hydrated(adminPage);
      assert.equal(await chip(adminPage, "notes.txt").count(), 0, "each user sees only their own files");
      await adminPage.getByTestId("file-input").setInputFiles([files["report.md"]]);
      const report = chip(adminPage, "report.md");
      await report.getByText(/^\d+ tokens?$/).waitFor();
      await screenshot(adminPage, "admin-desktop-dark");
      await report.getByRole("button", { name: "Add to workspace" }).click();
      await adminPage.locator(".Toastify__toast--success").getByText(
        "report.md was added to the workspace's documents.",
      ).waitFor();
      await report.waitFor({ state: "detached" });
      assert.deepEqual(await listed(app, slug, { session: admin }), [], "the file left the thread");
      const workspace = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
        `/api/workspace/${slug}`,
        bearer(admin.token),
      );
      assert.equal(workspace.body.workspace.documents.length, 1);
      assert.match(workspace.body.workspace.documents[0].docpath, /^custom-documents\/report\.md-.+\.json$/);
      await adminPage.getByRole("button", { name: "Documents (1)" }).click();
      await adminPage.getByRole("region", { name: "Documents", exact: true }).getByText("report.md").first()
        .waitFor();
      // Dora's file was not touched.
      assert.deepEqual(await listed(app, slug, { session: dora }), ["notes.txt"]);
      assert.deepEqual(adminErrors, []);
    } finally {
      await browser.close();
      await Deno.remove(folder, { recursive: true });
    }
  },
});
