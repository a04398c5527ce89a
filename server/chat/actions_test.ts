import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaceChats } from "../../db/schema.ts";
import { History } from "../../shared/api/chat.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../testing/test_app.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../testing/fake_openai.ts";

async function chatty(llm: FakeOpenAi, extra: Record<string, string> = {}) {
  const app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL, extra) });
  await app.json("/api/workspace/new", { json: { name: "Talk" } });
  return app;
}

async function send(app: TestApp, message: string, path = "/api/workspace/talk") {
  return await readFrames(
    await app.request(`${path}/stream-chat`, { method: "POST", body: JSON.stringify({ message }) }),
  );
}

const history = async (app: TestApp, path = "/api/workspace/talk") =>
  History.parse((await app.json(`${path}/chats`)).body).history;

Deno.test("/reset hides the thread's memory and answers reset_chat", async () => {
  await using llm = startFakeOpenAi();
  await using app = await chatty(llm);
  await send(app, "remember the number 7");
  const frames = await send(app, "/RESET please");
  assert.equal(frames.length, 1);
  assert.equal(frames[0].type, "textResponse");
  assert.equal(frames[0].textResponse, "Chat memory was reset!");
  assert.equal(frames[0].action, "reset_chat");
  assert.deepEqual(await history(app), []);
  await send(app, "what number?");
  assert.deepEqual(llm.chatRequests.at(-1)!.messages.map((message) => message.role), ["system", "user"]);
});

Deno.test("slash command presets expand for the model; the stored prompt stays as typed", async () => {
  await using llm = startFakeOpenAi();
  await using app = await chatty(llm);
  const created = await app.json<{ preset: { id: number; command: string } }>(
    "/api/system/slash-command-presets",
    {
      json: {
        command: "Summary",
        prompt: "Summarise the documents in three bullet points.",
        description: "Short",
      },
    },
  );
  assert.equal(created.status, 201);
  assert.equal(created.body.preset.command, "/summary");
  assert.equal(
    (await app.json("/api/system/slash-command-presets", { json: { command: "/reset", prompt: "x" } }))
      .status,
    400,
  );
  assert.equal(
    (await app.json("/api/system/slash-command-presets", { json: { command: "summary", prompt: "x" } }))
      .status,
    409,
  );

  await send(app, "/summary please, and /unknown stays");
  assert.equal(
    llm.chatRequests[0].messages.at(-1)!.content,
    "Summarise the documents in three bullet points. please, and /unknown stays",
  );
  assert.equal((await history(app))[0].content, "/summary please, and /unknown stays");

  const id = created.body.preset.id;
  const updated = await app.json(`/api/system/slash-command-presets/${id}`, {
    json: { command: "tldr", prompt: "Be short.", description: "" },
  });
  assert.equal(updated.status, 200);
  const list = await app.json<{ presets: { command: string }[] }>("/api/system/slash-command-presets");
  assert.deepEqual(list.body.presets.map((preset) => preset.command), ["/tldr"]);
  assert.equal(
    (await app.request(`/api/system/slash-command-presets/${id}`, { method: "DELETE" })).status,
    204,
  );
  assert.equal((await app.json(`/api/system/slash-command-presets/${id}`, { method: "DELETE" })).status, 404);
});

Deno.test("edit, regenerate, delete, rate and hide chats", async () => {
  await using llm = startFakeOpenAi();
  await using app = await chatty(llm);
  await send(app, "first");
  await send(app, "second");
  const [first, , second] = await history(app);

  const editPrompt = await app.json("/api/workspace/talk/update-chat", {
    json: { chatId: first.chatId, newText: "first, edited", role: "user" },
  });
  assert.equal(editPrompt.status, 200);
  const editAnswer = await app.json("/api/workspace/talk/update-chat", {
    json: { chatId: first.chatId, newText: "A better answer.", role: "assistant" },
  });
  assert.equal(editAnswer.status, 200);
  const afterEdit = await history(app);
  assert.equal(afterEdit[0].content, "first, edited");
  assert.equal(afterEdit[1].content, "A better answer.");
  assert.equal(
    (await app.json("/api/workspace/talk/update-chat", { json: { chatId: first.chatId, newText: "  " } }))
      .status,
    400,
  );
  assert.equal(
    (await app.json("/api/workspace/talk/update-chat", { json: { chatId: 9999, newText: "x" } })).status,
    404,
  );

  const feedback = await app.json(`/api/workspace/talk/chat-feedback/${first.chatId}`, {
    json: { feedback: true },
  });
  assert.deepEqual(feedback.body, { success: true });
  const rated = (await history(app))[1];
  assert.equal(rated.role === "assistant" && rated.feedbackScore, true);
  await app.json(`/api/workspace/talk/chat-feedback/${first.chatId}`, { json: { feedback: null } });
  assert.equal(
    (await app.json(`/api/workspace/talk/chat-feedback/9999`, { json: { feedback: true } })).status,
    404,
  );

  // Regenerate: delete from the second chat on, then send again.
  const regenerate = await app.json("/api/workspace/talk/delete-edited-chats", {
    method: "DELETE",
    json: { startingId: second.chatId },
  });
  assert.equal(regenerate.status, 200);
  assert.equal((await history(app)).length, 2);
  await send(app, "second again");
  assert.equal((await history(app)).length, 4);

  const hidden = await app.json(`/api/workspace/workspace-chats/${first.chatId}`, { method: "PUT" });
  assert.equal(hidden.status, 200);
  assert.equal((await history(app)).length, 2, "a hidden chat leaves the history");
  const [row] = await app.deps.db.select().from(workspaceChats).where(eq(workspaceChats.id, first.chatId));
  assert.equal(row.include, false, "hidden, not deleted");
  assert.equal((await app.json("/api/workspace/workspace-chats/9999", { method: "PUT" })).status, 404);

  const all = await history(app);
  const deleted = await app.json("/api/workspace/talk/delete-chats", {
    method: "DELETE",
    json: { chatIds: [all[0].chatId] },
  });
  assert.equal(deleted.status, 200);
  assert.deepEqual(await history(app), []);
});

Deno.test("threads: rename, fork up to a chat, delete one, delete many", async () => {
  await using llm = startFakeOpenAi();
  await using app = await chatty(llm);
  await send(app, "one");
  await send(app, "two");
  await send(app, "three");
  const defaultHistory = await history(app);
  const forked = await app.json<{ newThreadSlug: string }>("/api/workspace/talk/thread/fork", {
    json: { chatId: defaultHistory[2].chatId },
  });
  assert.equal(forked.status, 200, JSON.stringify(forked.body));
  const threadPath = `/api/workspace/talk/thread/${forked.body.newThreadSlug}`;
  const copied = await history(app, threadPath);
  assert.deepEqual(copied.filter((entry) => entry.role === "user").map((entry) => entry.content), [
    "one",
    "two",
  ]);
  const threads = await app.json<{ threads: { slug: string; name: string }[] }>(
    "/api/workspace/talk/threads",
  );
  assert.equal(threads.body.threads[0].name, "You asked: two. I saw …", "named after the last answer");
  assert.equal(
    (await app.json("/api/workspace/talk/thread/fork", { json: {} })).body.message,
    "chatId is required",
  );

  const renamed = await app.json<{ thread: { name: string } }>(`${threadPath}/update`, {
    json: { name: "Renamed" },
  });
  assert.equal(renamed.body.thread.name, "Renamed");
  assert.equal((await app.json(`${threadPath}/update`, { json: { name: " " } })).status, 400);
  const tooLong = await app.json<{ message: string }>(`${threadPath}/update`, {
    json: { name: "n".repeat(256) },
  });
  assert.equal(tooLong.status, 400);
  assert.match(tooLong.body.message, /longer than 255 characters/);

  const made = [];
  for (let index = 0; index < 3; index++) {
    made.push(
      (await app.json<{ thread: { slug: string } }>("/api/workspace/talk/thread/new", { method: "POST" }))
        .body.thread.slug,
    );
  }
  assert.equal((await app.json(`${threadPath}`, { method: "DELETE" })).status, 200);
  assert.equal((await app.json(`${threadPath}/chats`)).status, 404);
  const bulk = await app.json<{ deleted: number }>("/api/workspace/talk/thread-bulk-delete", {
    method: "DELETE",
    json: { slugs: [...made.slice(0, 2), "not-a-thread"] },
  });
  assert.equal(bulk.body.deleted, 2);
  const left = await app.json<{ threads: { slug: string }[] }>("/api/workspace/talk/threads");
  assert.deepEqual(left.body.threads.map((thread) => thread.slug), [made[2]]);
  assert.equal(
    (await app.json("/api/workspace/talk/thread-bulk-delete", { method: "DELETE", json: { slugs: [] } }))
      .status,
    200,
  );
});

Deno.test("images go to the model as vision content parts and stay with the chat", async () => {
  await using llm = startFakeOpenAi();
  await using app = await chatty(llm);
  const png = "data:image/png;base64,iVBORw0KGgo=";
  const response = await app.request("/api/workspace/talk/stream-chat", {
    method: "POST",
    body: JSON.stringify({
      message: "what is this?",
      attachments: [{ name: "x.png", mime: "image/png", contentString: png }],
    }),
  });
  assert.equal((await readFrames(response)).at(-1)?.type, "finalizeResponseStream");
  const last = llm.chatRequests[0].messages.at(-1) as unknown as { content: unknown };
  assert.deepEqual(last.content, [{ type: "text", text: "what is this?" }, {
    type: "image_url",
    image_url: { url: png },
  }]);
  const [user] = await history(app);
  assert.equal(user.role === "user" && user.attachments.length, 1);

  const bad = await app.request("/api/workspace/talk/stream-chat", {
    method: "POST",
    body: JSON.stringify({
      message: "x",
      attachments: [{
        name: "a.svg",
        mime: "image/svg+xml",
        contentString: "data:image/svg+xml;base64,PHN2Zz4=",
      }],
    }),
  });
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).error, "a.svg is not a PNG, JPEG, WebP or GIF image sent as a data URL.");
});

Deno.test("a prompt larger than the model's window is shortened, never refused", async () => {
  await using llm = startFakeOpenAi();
  await using app = await chatty(llm, { GenericOpenAiTokenLimit: "300", GenericOpenAiMaxTokens: "50" });
  for (let index = 0; index < 3; index++) await send(app, `long question ${index} `.repeat(40));
  const frames = await send(app, "and now a very long message ".repeat(200));
  assert.equal(frames.at(-1)?.type, "finalizeResponseStream");
  const last = llm.chatRequests.at(-1)!;
  assert.deepEqual(last.messages.map((message) => message.role), ["system", "user"], "history made room");
  assert.match(last.messages[1].content, /\[…\]/);
});
