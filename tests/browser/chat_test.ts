import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { workspaceChats, workspaces } from "../../db/schema.ts";
import {
  configuredTestApp,
  createTestApp,
  genericOpenAiSettings,
  type TestApp,
} from "../../server/testing/test_app.ts";
import {
  type ChatCompletionRequest,
  type FakeOpenAi,
  startFakeOpenAi,
} from "../../server/testing/fake_openai.ts";
import {
  browserTestOptions,
  hydrated,
  launchChromium,
  pageErrors,
  SCREENSHOTS,
  watchErrors,
} from "./chromium.ts";

/** The text of the last user turn the model was sent (image turns carry a list of parts). */
function questionOf(request: ChatCompletionRequest): string {
  const content = request.messages.at(-1)?.content as unknown;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
  }
  return "";
}

/** An instance whose model is the fake server and whose vector database is LanceDB, with one workspace. */
async function instance(llm: FakeOpenAi, name: string) {
  const app = await createTestApp();
  const settings = await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  assert.equal(settings.status, 200);
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", { json: { name } });
  return { app, slug: created.body.workspace.slug, url: app.listen() };
}

async function history(app: TestApp, path: string) {
  const answer = await app.json<
    { history: { role: string; content: string; feedbackScore?: boolean | null }[] }
  >(
    `/api/workspace/${path}/chats`,
  );
  return answer.body.history;
}

async function ask(page: Page, text: string) {
  await page.getByLabel("Your message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

/** Resolves once `check` holds, polling; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 10_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

Deno.test({
  name: "browser chat: edit a prompt, regenerate, edit a reply, thumbs up, copy and delete persist",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    let count = 0;
    llm.setReply((request) => ({ chunks: [`Answer ${++count} `, `to ${questionOf(request)}`], delayMs: 10 }));
    const { app, slug, url } = await instance(llm, "Edits");
    await using _app = app;
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);

      await ask(page, "first question");
      await page.getByText("Answer 1 to first question").waitFor();

      // Edit the prompt: the old answer goes, the edited prompt is asked again.
      await page.locator(".message-row.user").getByRole("button", { name: "Edit message" }).click();
      await page.getByLabel("Edit your message").fill("edited question");
      await page.getByRole("button", { name: "Save and send" }).click();
      await page.getByText("Answer 2 to edited question").waitFor();
      assert.equal(await page.getByText("first question").count(), 0);
      assert.equal(await page.getByText("Answer 1 to").count(), 0);
      assert.equal(await page.locator(".message.user").count(), 1);

      // Regenerate the last answer.
      await page.getByRole("button", { name: "Regenerate" }).click();
      await page.getByText("Answer 3 to edited question").waitFor();
      assert.equal(await page.getByText("Answer 2 to").count(), 0);
      await eventually(async () => (await history(app, slug)).length === 2, "one saved chat");
      assert.deepEqual((await history(app, slug)).map((entry) => entry.content), [
        "edited question",
        "Answer 3 to edited question",
      ]);

      // Edit the answer in place.
      await page.getByRole("button", { name: "Edit reply" }).click();
      await page.getByLabel("Edit the reply").fill("A **corrected** answer");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.locator(".message.assistant strong", { hasText: "corrected" }).waitFor();

      // Thumbs up, shown as pressed, kept after a reload; clicking again clears it.
      await page.getByRole("button", { name: "Good response" }).click();
      await eventually(async () => (await history(app, slug))[1].feedbackScore === true, "feedback saved");
      await page.reload();
      await hydrated(page);
      await page.getByText("corrected").waitFor();
      assert.equal(
        await page.getByRole("button", { name: "Good response" }).getAttribute("aria-pressed"),
        "true",
      );
      assert.equal(
        await page.getByRole("button", { name: "Bad response" }).getAttribute("aria-pressed"),
        "false",
      );
      await page.getByRole("button", { name: "Good response" }).click();
      await eventually(async () => (await history(app, slug))[1].feedbackScore === null, "feedback cleared");
      assert.equal(
        await page.getByRole("button", { name: "Good response" }).getAttribute("aria-pressed"),
        "false",
      );

      // Copy an answer.
      await page.locator(".message-row.assistant").getByRole("button", { name: "Copy" }).click();
      await page.getByText("Copied to clipboard.").waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "A **corrected** answer");

      // Delete the pair, after a confirm.
      await page.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByText("Chat deleted.").waitFor();
      assert.equal(await page.locator(".message").count(), 0);
      await page.reload();
      await hydrated(page);
      await page.getByText("Send a message to start the conversation.").waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser chat: stopping a slow answer keeps the partial text, also after a reload",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply(() => ({
      chunks: ["Partial ", "answer ", ...Array.from({ length: 40 }, () => "more "), "THE END"],
      delayMs: 150,
    }));
    const { app, slug, url } = await instance(llm, "Slow");
    await using _app = app;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      await ask(page, "tell me a long story");
      await page.locator(".message.assistant").getByText("Partial answer").waitFor();
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor();
      await eventually(async () => (await history(app, slug)).length === 2, "the partial answer saved");
      // Once saved, the stopped answer gets its chat id without a reload: it can be regenerated.
      await page.getByRole("button", { name: "Regenerate" }).waitFor();
      const saved = (await history(app, slug))[1].content;
      assert.match(saved, /^Partial answer/);
      assert.doesNotMatch(saved, /THE END/);

      await page.reload();
      await hydrated(page);
      await page.locator(".message.assistant").getByText("Partial answer").waitFor();
      assert.equal(await page.getByText("THE END").count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser chat: a message sent before the history arrives keeps its prompt on the page",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply((request) => ({ chunks: ["Early ", "answer ", "to ", questionOf(request)], delayMs: 250 }));
    const { app, slug, url } = await instance(llm, "Early");
    await using _app = app;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      // The history is held back until the message has been sent (a slow network on a small machine).
      let release = () => {};
      const held = new Promise<void>((resolve) => release = resolve);
      await page.route(`**/api/workspace/${slug}/chats`, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      await ask(page, "an early question");
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await page.locator(".message.assistant").getByText("Early answer to an early question").waitFor();
      const prompt = page.locator(".message-row.user");
      assert.equal(await prompt.count(), 1);
      assert.equal(await prompt.locator(".message-text").textContent(), "an early question");
      // Saved: the prompt has its chat id, so it can be edited.
      await prompt.getByRole("button", { name: "Edit message" }).waitFor();
      assert.deepEqual((await history(app, slug)).map((entry) => entry.content), [
        "an early question",
        "Early answer to an early question",
      ]);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser chat: fork lands on a new thread with the copied messages; /reset clears the conversation",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply((request) => ({ chunks: [`Reply to ${questionOf(request)}`] }));
    const { app, slug, url } = await instance(llm, "Forks");
    await using _app = app;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      await ask(page, "alpha");
      await page.getByText("Reply to alpha").waitFor();
      await ask(page, "beta");
      await page.getByText("Reply to beta").waitFor();

      await page.evaluate(() => {
        addEventListener("lectern:thread-created", (event) => {
          sessionStorage.setItem("created", JSON.stringify((event as CustomEvent).detail));
        });
      });
      await page.locator(".message-row.assistant").first().getByRole("button", {
        name: "Fork to a new thread",
      })
        .click();
      await page.waitForURL(new RegExp(`/workspace/${slug}/t/[0-9a-f-]{36}$`));
      await hydrated(page);
      const conversation = page.locator(".messages");
      await conversation.getByText("Reply to alpha").waitFor();
      assert.equal(await conversation.getByText("beta").count(), 0);
      const threadSlug = page.url().split("/t/")[1];
      const created = JSON.parse(await page.evaluate(() => sessionStorage.getItem("created") ?? "null"));
      assert.deepEqual(created, { thread: { slug: threadSlug, name: "Reply to alpha" } });
      assert.equal((await history(app, `${slug}/thread/${threadSlug}`)).length, 2);
      assert.equal((await history(app, slug)).length, 4, "the default thread keeps its chats");

      // /reset in the thread: only the reset notice stays; after a reload the chat is empty.
      await ask(page, "/reset");
      await page.getByText("Chat memory was reset!").waitFor();
      assert.equal(await conversation.getByText("Reply to alpha").count(), 0);
      assert.equal(await page.locator(".message").count(), 1);
      await page.reload();
      await hydrated(page);
      await page.getByText("Send a message to start the conversation.").waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser chat: a thread's first answer renames it through a window event",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    const { app, slug, url } = await instance(llm, "Names");
    await using _app = app;
    const thread = await app.json<{ thread: { slug: string } }>(`/api/workspace/${slug}/thread/new`, {
      method: "POST",
    });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/workspace/${slug}/t/${thread.body.thread.slug}`);
      await hydrated(page);
      await page.evaluate(() => {
        addEventListener("lectern:thread-renamed", (event) => {
          (globalThis as unknown as { renamed: unknown }).renamed = (event as CustomEvent).detail;
        });
      });
      await ask(page, "What is the capital of Freedonia today?");
      await page.getByText(/You asked: What is the capital/).waitFor();
      await page.waitForFunction(() => (globalThis as unknown as { renamed?: unknown }).renamed);
      assert.deepEqual(await page.evaluate(() => (globalThis as unknown as { renamed: unknown }).renamed), {
        slug: thread.body.thread.slug,
        name: "What is the capital of…",
      });
    } finally {
      await browser.close();
    }
  },
});

// A 1x1 PNG.
const PIXEL = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (char) => char.charCodeAt(0),
);

Deno.test({
  name: "browser chat: on a dark phone screen, suggested messages, image attachments, code and tables fit",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply((request) => ({
      chunks: [
        `Seen ${questionOf(request)}.\n\n`,
        "```js\nconst answer = 42;\n```\n\n",
        "| " + Array.from({ length: 12 }, (_, index) => `column${index}`).join(" | ") + " |\n",
        "|" + "---|".repeat(12) + "\n",
        "| " + Array.from({ length: 12 }, (_, index) => `value${index}`).join(" | ") + " |\n",
      ],
    }));
    const { app, slug, url } = await instance(llm, "Phone");
    await using _app = app;
    await app.json(`/api/workspace/${slug}/suggested-messages`, {
      json: { messages: [{ heading: "Summarise", message: "Summarise the documents" }] },
    });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({
        viewport: { width: 375, height: 740 },
        colorScheme: "dark",
        hasTouch: true,
      });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);

      await page.getByRole("button", { name: /Summarise the documents/ }).click();
      await page.getByText("Seen Summarise the documents.").waitFor();
      assert.equal(await page.getByRole("button", { name: /Summarise the documents/ }).count(), 0);

      // Code: highlighted, with a working copy button.
      await page.locator(".message.assistant .hljs-keyword", { hasText: "const" }).waitFor();
      await page.getByRole("button", { name: "Copy code" }).click();
      await page.getByText("Code copied to clipboard.").waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "const answer = 42;\n");

      // Images: attach, preview, remove, send; the thumbnail stays after a reload. Beside them a text file
      // becomes a file of the thread, and a program is refused with the server's sentence.
      const file = await Deno.makeTempDir();
      await Deno.writeFile(`${file}/dot.png`, PIXEL);
      await Deno.writeTextFile(`${file}/notes.txt`, "not an image");
      await Deno.writeFile(
        `${file}/setup.exe`,
        new Uint8Array(2048).map((_, index) => (index * 7919 + 13) % 256),
      );
      await page.getByTestId("file-input").setInputFiles([
        `${file}/dot.png`,
        `${file}/notes.txt`,
        `${file}/setup.exe`,
      ]);
      await page.getByText(
        "setup.exe was not attached: File extension .exe not supported for parsing and cannot be assumed as text file type.",
      ).waitFor();
      await page.getByRole("list", { name: "Files in this thread's context" }).getByText("notes.txt")
        .waitFor();
      await page.getByRole("list", { name: "Images to send" }).getByRole("img", { name: "dot.png" })
        .waitFor();
      await page.getByTestId("file-input").setInputFiles([`${file}/dot.png`]);
      // The second copy shows once the browser has read it (FileReader): a removal before that leaves none for a
      // moment, and a count read then says 0.
      const images = page.getByRole("list", { name: "Images to send" }).getByRole("img");
      await images.nth(1).waitFor();
      await page.getByRole("button", { name: "Remove dot.png" }).first().click();
      assert.equal(await images.count(), 1);
      await ask(page, "what is in this picture?");
      await page.getByText("Seen what is in this picture?.").waitFor();
      const sent = llm.chatRequests.at(-1)?.messages.at(-1)?.content as unknown as { type: string }[];
      assert.ok(
        Array.isArray(sent) && sent.some((part) => part.type === "image_url"),
        "the model got the image",
      );
      await page.reload();
      await hydrated(page);
      await page.locator(".message.user").getByRole("img", { name: "dot.png" }).waitFor();
      await page.getByRole("list", { name: "Files in this thread's context" }).getByText("notes.txt")
        .waitFor();

      // The toolbar shows without hover on touch screens; nothing scrolls the page sideways.
      const toolbar = page.locator(".message-actions").last();
      assert.equal(await toolbar.evaluate((element) => getComputedStyle(element).opacity), "1");
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.equal(overflow, 0, "no sideways scrolling");
      const composer = await page.locator(".composer").boundingBox();
      assert.ok(composer && composer.y + composer.height <= 740 + 1, "the composer stays on screen");
      assert.equal(await page.evaluate(() => document.documentElement.scrollTop), 0, "only the list scrolls");
      const table = page.locator(".table-scroll").last();
      assert.ok(
        await table.evaluate((element) => element.scrollWidth > element.clientWidth),
        "the wide table scrolls inside its wrapper",
      );
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL("chat-phone-dark.png", SCREENSHOTS)) });
      await Deno.remove(file, { recursive: true });
      assert.deepEqual(pageErrors(errors), [], "only the refused program's 400");
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser chat: a thread of 1,000 messages loads and streams a new answer",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply(() => ({ chunks: Array.from({ length: 30 }, (_, index) => `token${index} `), delayMs: 5 }));
    const { app, slug, url } = await instance(llm, "Long");
    await using _app = app;
    const [workspace] = await app.deps.db.select().from(workspaces);
    const rows = Array.from({ length: 500 }, (_, index) => ({
      workspaceId: workspace.id,
      prompt: `Question ${index}`,
      response: JSON.stringify({
        text:
          `Answer ${index} with \`code\`, a [link](https://example.com) and **bold** text.\n\n- one\n- two`,
        sources: [],
        type: "chat",
        attachments: [],
        metrics: {},
      }),
      include: true,
    }));
    for (let start = 0; start < rows.length; start += 100) {
      await app.deps.db.insert(workspaceChats).values(rows.slice(start, start + 100));
    }
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      await page.getByText("Answer 499 with").waitFor();
      assert.equal(await page.locator(".message-row").count(), 1000);
      await ask(page, "one more");
      await page.getByText("token29").waitFor();
      await page.getByRole("button", { name: "Regenerate" }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: a message over the length limit is not sent; the composer says why",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Limits" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/limits`);
      await hydrated(page);
      const input = page.getByRole("textbox", { name: "Your message" });
      await input.fill("x".repeat(200_001));
      await page.getByRole("alert").filter({
        hasText: "This message has 200,001 characters; the most is 200,000.",
      })
        .waitFor();
      assert.equal(await page.getByRole("button", { name: "Send" }).isDisabled(), true);
      await input.press("Enter");
      assert.equal(
        (await app.json<{ history: unknown[] }>("/api/workspace/limits/chats")).body.history.length,
        0,
      );
      await input.press("Backspace");
      assert.equal(await page.getByRole("button", { name: "Send" }).isDisabled(), false);
      assert.equal(await page.getByRole("alert").count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
