import assert from "node:assert/strict";
import type { ChatCompletionRequest } from "../testing/fake_openai.ts";
import { eq } from "drizzle-orm";
import { workspaceChats, workspaceThreads } from "../../db/schema.ts";
import { ApiChatResult, ChatFrame, History } from "../../shared/api/chat.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { readFrames, type TestApp } from "../testing/test_app.ts";
import { setup, workspace } from "./chat_fixtures.ts";

const post = (app: TestApp, key: string, path: string, json: unknown) =>
  app.json<Record<string, unknown>>(`/api/v1${path}`, withKey(key, { json }));

/** The UI's history of the default thread (the instance is open: no session needed). */
async function uiHistory(app: TestApp, slug: string, thread?: string) {
  const path = thread ? `/api/workspace/${slug}/thread/${thread}/chats` : `/api/workspace/${slug}/chats`;
  const answer = await app.json(path);
  assert.equal(answer.status, 200);
  return History.parse(answer.body).history;
}

/** The model calls that asked for answers (a follow-up's search-query rewrite comes before its answer). */
const answerCalls = (llm: { chatRequests: ChatCompletionRequest[] }) =>
  llm.chatRequests.filter((request) => !request.messages[0]?.content.startsWith("You rewrite the user's"));

Deno.test("POST /api/v1/workspace/:slug/chat answers whole, cites the document, keeps the chat in its session and out of the UI", async () => {
  await using env = await setup();
  const { app, key, llm } = env;
  const { slug } = await workspace(app, "Atlas");

  const answer = await post(app, key, `/workspace/${slug}/chat`, {
    message: "What is the capital of Freedonia?",
    sessionId: "crm-42",
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const result = ApiChatResult.parse(answer.body);
  assert.equal(result.type, "textResponse");
  assert.equal(result.textResponse, "You asked: What is the capital of Freedonia?. I saw 1 context blocks.");
  assert.equal(result.error, null);
  assert.equal(result.close, true);
  assert.equal(result.sources.length, 1);
  assert.match(result.sources[0].text, /Fredville/);
  assert.equal(typeof result.chatId, "number");
  assert.equal(result.metrics.model, "fake-model");
  assert.equal(typeof result.metrics.total_tokens, "number");

  const [row] = await app.deps.db.select().from(workspaceChats).where(eq(workspaceChats.id, result.chatId!));
  assert.equal(row.apiSessionId, "crm-42");
  assert.deepEqual(await uiHistory(app, slug), []);

  // The same session remembers; another session, and the UI, do not see it.
  await post(app, key, `/workspace/${slug}/chat`, { message: "And its river?", sessionId: "crm-42" });
  assert.deepEqual(
    answerCalls(llm)[1].messages.slice(1).map((message) => message.role),
    ["user", "assistant", "user"],
  );
  assert.equal(answerCalls(llm)[1].messages[1].content, "What is the capital of Freedonia?");
  await post(app, key, `/workspace/${slug}/chat`, { message: "Hello?", sessionId: "other" });
  assert.deepEqual(answerCalls(llm)[2].messages.slice(1).map((message) => message.role), ["user"]);
  const ui = await app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message: "From the UI" }),
  });
  await readFrames(ui);
  assert.deepEqual(answerCalls(llm)[3].messages.slice(1).map((message) => message.role), ["user"]);
  const history = await uiHistory(app, slug);
  assert.deepEqual(history.map((entry) => entry.content).filter((text) => text === "From the UI"), [
    "From the UI",
  ]);
  assert.equal(history.length, 2, "only the UI's own chat shows in the UI");
});

Deno.test("API chats without a sessionId share the API's own session, hidden from the UI", async () => {
  await using env = await setup();
  const { app, key, llm } = env;
  const { slug } = await workspace(app, "Atlas", false);

  const first = await post(app, key, `/workspace/${slug}/chat`, { message: "Remember 7." });
  assert.equal(first.status, 200);
  const [row] = await app.deps.db.select().from(workspaceChats).where(
    eq(workspaceChats.id, first.body.chatId as number),
  );
  assert.equal(row.apiSessionId, "");
  await post(app, key, `/workspace/${slug}/chat`, { message: "What number?", sessionId: "" });
  assert.equal(answerCalls(llm)[1].messages[1].content, "Remember 7.");
  assert.deepEqual(await uiHistory(app, slug), []);

  // reset without a message forgets the session's history and says so.
  const reset = await post(app, key, `/workspace/${slug}/chat`, { reset: true });
  assert.equal(reset.status, 200);
  assert.equal(reset.body.type, "textResponse");
  assert.equal(reset.body.textResponse, "Chat history was reset!");
  assert.equal(reset.body.error, null);
  await post(app, key, `/workspace/${slug}/chat`, { message: "Anything?" });
  assert.deepEqual(answerCalls(llm)[2].messages.slice(1).map((message) => message.role), ["user"]);
});

Deno.test("POST /api/v1/workspace/:slug/stream-chat streams the UI's frames and keeps the chat out of the UI", async () => {
  await using env = await setup();
  const { app, key } = env;
  const { slug } = await workspace(app, "Atlas");

  const response = await app.request(
    `/api/v1/workspace/${slug}/stream-chat`,
    withKey(key, {
      method: "POST",
      // A whole question: the chunk's header holds its upload time, whose words move a one-word question's
      // cosine around the workspace's 0.25 threshold ("Capital?" fell under it at 18 of 12,960 times of day).
      body: JSON.stringify({ message: "What is the capital of Freedonia?", sessionId: 9, mode: "automatic" }),
    }),
  );
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const frames = await readFrames(response);
  for (const frame of frames) ChatFrame.parse(frame);
  const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
    .join("");
  assert.equal(text, "You asked: What is the capital of Freedonia?. I saw 1 context blocks.");
  const finalize = frames.at(-1)!;
  assert.equal(finalize.type, "finalizeResponseStream");
  const [row] = await app.deps.db.select().from(workspaceChats).where(
    eq(workspaceChats.id, finalize.chatId as number),
  );
  assert.equal(row.apiSessionId, "9");
  assert.deepEqual(await uiHistory(app, slug), []);
});

Deno.test("thread chats through the API never show in the thread's history, nor rename it", async () => {
  await using env = await setup();
  const { app, key } = env;
  const { slug } = await workspace(app, "Atlas", false);
  const made = await app.json<{ thread: { slug: string; name: string } }>(
    `/api/workspace/${slug}/thread/new`,
    {
      method: "POST",
    },
  );
  const thread = made.body.thread;

  const whole = await post(app, key, `/workspace/${slug}/thread/${thread.slug}/chat`, { message: "One" });
  assert.equal(whole.status, 200, JSON.stringify(whole.body));
  assert.equal(whole.body.textResponse, "You asked: One. I saw 0 context blocks.");
  const streamed = await app.request(
    `/api/v1/workspace/${slug}/thread/${thread.slug}/stream-chat`,
    withKey(key, { method: "POST", body: JSON.stringify({ message: "Two", sessionId: "s" }) }),
  );
  const frames = await readFrames(streamed);
  assert.equal(frames.at(-1)!.type, "finalizeResponseStream");
  assert.ok(!frames.some((frame) => frame.action === "rename_thread"));

  assert.deepEqual(await uiHistory(app, slug, thread.slug), []);
  assert.deepEqual(await uiHistory(app, slug), []);
  const rows = await app.deps.db.select().from(workspaceChats);
  assert.equal(rows.length, 2);
  assert.ok(rows.every((row) => row.threadId !== null && row.apiSessionId !== null));
  const [stored] = await app.deps.db.select().from(workspaceThreads).where(
    eq(workspaceThreads.slug, thread.slug),
  );
  assert.equal(stored.name, thread.name);
});

Deno.test("API chat modes: query refuses without context, chat answers, an unknown mode is refused", async () => {
  await using env = await setup();
  const { app, key } = env;
  const { slug } = await workspace(app, "Empty", false);

  const query = await post(app, key, `/workspace/${slug}/chat`, { message: "Capital?", mode: "query" });
  assert.equal(query.status, 200);
  assert.equal(query.body.type, "textResponse");
  assert.equal(
    query.body.textResponse,
    "There is no relevant information in this workspace to answer your query.",
  );
  const chat = await post(app, key, `/workspace/${slug}/chat`, { message: "Capital?", mode: "chat" });
  assert.equal(chat.body.textResponse, "You asked: Capital?. I saw 0 context blocks.");
  const bad = await post(app, key, `/workspace/${slug}/chat`, { message: "Capital?", mode: "banana" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.type, "abort");
  assert.equal(bad.body.error, "banana is not a valid mode.");
});

Deno.test("API chat refusals: unknown workspace or thread, empty message, bad fields, malformed JSON", async () => {
  await using env = await setup();
  const { app, key } = env;
  const { slug } = await workspace(app, "Atlas", false);

  const abort = (
    answer: { status: number; body: Record<string, unknown> },
    status: number,
    error: string,
  ) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.type, "abort");
    assert.equal(answer.body.textResponse, null);
    assert.deepEqual(answer.body.sources, []);
    assert.equal(answer.body.close, true);
    assert.equal(answer.body.error, error);
  };
  for (const path of ["chat", "stream-chat"]) {
    abort(
      await post(app, key, `/workspace/nope/${path}`, { message: "Hi" }),
      400,
      "Workspace nope is not a valid workspace.",
    );
    abort(await post(app, key, `/workspace/${slug}/${path}`, { message: "" }), 400, "Message is empty.");
    abort(await post(app, key, `/workspace/${slug}/${path}`, {}), 400, "Message is empty.");
    abort(
      await post(app, key, `/workspace/${slug}/${path}`, { message: "Hi", sessionId: { a: 1 } }),
      400,
      "sessionId must be text.",
    );
    abort(
      await post(app, key, `/workspace/${slug}/${path}`, {
        message: "Hi",
        attachments: [{ contentString: "x" }],
      }),
      400,
      "image-1 is not a PNG, JPEG, WebP or GIF image sent as a data URL.",
    );
    const malformed = await app.json(`/api/v1/workspace/${slug}/${path}`, withKey(key, { json: "{oops" }));
    assert.equal(malformed.status, 400);
    assert.match(String((malformed.body as { error: string }).error), /^The request body is not valid JSON/);
  }
  abort(
    await post(app, key, `/workspace/nope/thread/t/chat`, { message: "Hi" }),
    404,
    "Workspace nope not found.",
  );
  abort(
    await post(app, key, `/workspace/${slug}/thread/t/chat`, { message: "Hi" }),
    404,
    "Thread t not found.",
  );
  abort(
    await post(app, key, `/workspace/${slug}/thread/t/stream-chat`, { message: "Hi" }),
    400,
    `Workspace ${slug} or thread t is not valid.`,
  );
  assert.equal((await app.deps.db.select().from(workspaceChats)).length, 0, "nothing is stored");
});

Deno.test("API chat: a failing model is an abort answer (502 whole, an abort frame streamed)", async () => {
  await using env = await setup();
  const { app, key, llm } = env;
  const { slug } = await workspace(app, "Atlas", false);
  llm.setReply(() => ({ status: 500, message: "The model is down" }));

  const whole = await post(app, key, `/workspace/${slug}/chat`, { message: "Hi" });
  assert.equal(whole.status, 502);
  assert.equal(whole.body.type, "abort");
  assert.equal(whole.body.textResponse, null);
  assert.match(String(whole.body.error), /The model is down/);
  const streamed = await app.request(
    `/api/v1/workspace/${slug}/stream-chat`,
    withKey(key, { method: "POST", body: JSON.stringify({ message: "Hi" }) }),
  );
  const frames = await readFrames(streamed);
  assert.equal(frames.at(-1)!.type, "abort");
});

Deno.test("API chat and keys: scoped keys chat only where they may; userId needs a full-access key", async () => {
  await using env = await setup();
  const { app, key } = env;
  const atlas = await workspace(app, "Atlas", false);
  const other = await workspace(app, "Other", false);
  const chatKey =
    (await makeApiKey(app, { scope: "workspaces", workspaceIds: [atlas.id], permissions: ["chat"] }))
      .key;
  const readKey =
    (await makeApiKey(app, { scope: "workspaces", workspaceIds: [atlas.id], permissions: ["read"] }))
      .key;
  const readOnly = (await makeApiKey(app, { scope: "read" })).key;

  assert.equal((await post(app, chatKey, `/workspace/${atlas.slug}/chat`, { message: "Hi" })).status, 200);
  const elsewhere = await post(app, chatKey, `/workspace/${other.slug}/chat`, { message: "Hi" });
  assert.equal(elsewhere.status, 403);
  assert.match(String(elsewhere.body.error), /cannot use the workspace "other"/);
  const noChat = await post(app, readKey, `/workspace/${atlas.slug}/stream-chat`, { message: "Hi" });
  assert.equal(noChat.status, 403);
  assert.match(String(noChat.body.error), /may only read in its workspaces, so it cannot chat/);
  const ro = await post(app, readOnly, `/workspace/${atlas.slug}/chat`, { message: "Hi" });
  assert.equal(ro.status, 403);
  assert.equal(ro.body.error, "This API key is read-only, so it cannot make changes.");
  const none = await post(app, "not-a-key", `/workspace/${atlas.slug}/chat`, { message: "Hi" });
  assert.deepEqual(none, { status: 403, body: { error: "No valid api key found." } });

  const thread = (await app.json<{ thread: { slug: string } }>(`/api/workspace/${atlas.slug}/thread/new`, {
    method: "POST",
  })).body.thread;
  const asUser = await post(app, chatKey, `/workspace/${atlas.slug}/thread/${thread.slug}/chat`, {
    message: "Hi",
    userId: 1,
  });
  assert.equal(asUser.status, 403);
  assert.equal(asUser.body.error, "Only a full-access API key can chat for a user.");
  const badUser = await post(app, key, `/workspace/${atlas.slug}/thread/${thread.slug}/chat`, {
    message: "Hi",
    userId: "x",
  });
  assert.equal(badUser.status, 400);
  assert.equal(badUser.body.error, "userId must be the id of a user.");
});
