import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaceChats, workspaces } from "../../db/schema.ts";
import { ChatFrame, History } from "../../shared/api/chat.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../testing/test_app.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { createLogger } from "../log.ts";
import type { LogLevel } from "../config.ts";
import type { ChatRequest } from "../providers/llm/types.ts";

const FREEDONIA =
  "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.\n\n" +
  "Freedonia exports cheese and violins. Its national bird is the grey heron.";

async function workspaceWithDocument(app: TestApp, name = "Atlas") {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", { json: { name } });
  const slug = created.body.workspace.slug;
  const form = new FormData();
  form.append("file", new File([FREEDONIA], "freedonia.txt", { type: "text/plain" }));
  const upload = await app.json<{ documents: { location: string }[] }>(`/api/workspace/${slug}/upload`, {
    method: "POST",
    body: form,
  });
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  const location = upload.body.documents[0].location;
  const embedded = await app.json(`/api/workspace/${slug}/update-embeddings`, { json: { adds: [location] } });
  assert.equal(embedded.status, 200);
  assert.equal(embedded.body.message, null);
  return { slug, location };
}

function chat(app: TestApp, slug: string, message: unknown) {
  return app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    headers: { "Content-Type": "text/plain;charset=UTF-8" },
    body: JSON.stringify({ message }),
  });
}

Deno.test("POST /api/workspace/:slug/stream-chat streams chunks, cites the document and saves the chat", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const { slug } = await workspaceWithDocument(app);

  const response = await chat(app, slug, "What is the capital of Freedonia?");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  assert.equal(response.headers.get("cache-control"), "no-cache");
  const frames = await readFrames(response);
  for (const frame of frames) ChatFrame.parse(frame);

  const chunks = frames.filter((frame) => frame.type === "textResponseChunk");
  const uuid = chunks[0].uuid;
  assert.ok(chunks.every((frame) => frame.uuid === uuid), "one uuid for the whole answer");
  const text = chunks.map((frame) => frame.textResponse).join("");
  assert.equal(text, "You asked: What is the capital of Freedonia?. I saw 1 context blocks.");
  const closing = frames.at(-2)!;
  assert.equal(closing.type, "textResponseChunk");
  assert.equal(closing.close, true);
  assert.equal(closing.textResponse, "");
  const sources = closing.sources as { title: string; text: string; score: number }[];
  assert.equal(sources.length, 1);
  assert.equal(sources[0].title, "freedonia.txt");
  assert.match(sources[0].text, /Fredville/);
  assert.ok(sources[0].score >= 0.25 && sources[0].score <= 1);
  assert.deepEqual(Object.keys(frames[0]), ["uuid", "sources", "type", "textResponse", "close", "error"]);

  const finalize = frames.at(-1)!;
  assert.equal(finalize.type, "finalizeResponseStream");
  assert.equal(finalize.uuid, uuid);
  assert.equal(typeof finalize.chatId, "number");
  const metrics = finalize.metrics as Record<string, unknown>;
  for (const key of ["prompt_tokens", "completion_tokens", "total_tokens", "outputTps", "duration"]) {
    assert.equal(typeof metrics[key], "number", key);
  }
  assert.equal(metrics.model, "fake-model");
  assert.equal(metrics.provider, "generic-openai");

  const system = llm.chatRequests[0].messages[0];
  assert.equal(system.role, "system");
  assert.match(
    system.content,
    /\nContext:\n\[CONTEXT 0\]:\n<document_metadata>\nsourceDocument: freedonia.txt/,
  );
  assert.match(system.content, /The current date and time is \w+ \d+, \d{4}/, "{datetime} is expanded");
  assert.equal(llm.chatRequests[0].max_tokens, 512);

  const history = await app.json("/api/workspace/" + slug + "/chats");
  const parsed = History.parse(history.body);
  assert.equal(parsed.history.length, 2);
  assert.deepEqual(parsed.history[0], {
    role: "user",
    content: "What is the capital of Freedonia?",
    sentAt: parsed.history[0].sentAt,
    attachments: [],
    chatId: finalize.chatId,
  });
  const answer = parsed.history[1];
  assert.equal(answer.role, "assistant");
  if (answer.role === "assistant") {
    assert.equal(answer.content, text);
    assert.equal(answer.type, "chat");
    assert.equal(answer.sources.length, 1);
  }
});

Deno.test("stream-chat sends the recent history and honours openAiHistory 0 as no history", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const { slug } = await workspaceWithDocument(app);
  await readFrames(await chat(app, slug, "first question"));
  await readFrames(await chat(app, slug, "second question"));
  // The answer's request is the last: a follow-up is first rewritten for the search (rewrite.ts).
  const second = llm.chatRequests.at(-1)!.messages;
  assert.deepEqual(second.slice(1).map((message) => message.role), ["user", "assistant", "user"]);
  assert.equal(second[1].content, "first question");

  await app.deps.db.update(workspaces).set({ openAiHistory: 0 }).where(eq(workspaces.slug, slug));
  await readFrames(await chat(app, slug, "third question"));
  assert.deepEqual(llm.chatRequests.at(-1)!.messages.map((message) => message.role), ["system", "user"]);
});

Deno.test("stream-chat answers 400 abort JSON for an empty message and 404 for an unknown workspace", async () => {
  await using app = await createTestApp();
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Empty" },
  });
  const slug = created.body.workspace.slug;
  for (const message of ["", "   ", 42, null]) {
    const response = await chat(app, slug, message);
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.equal(body.type, "abort");
    assert.equal(body.error, "Message is empty.");
    assert.equal(body.textResponse, null);
    assert.deepEqual(body.sources, []);
    assert.equal(body.close, true);
    assert.equal(body.id, body.uuid);
  }
  const malformed = await app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: "{nope",
  });
  assert.equal(malformed.status, 400);
  assert.match((await malformed.json()).error, /not valid JSON/);

  const missing = await chat(app, "no-such-workspace", "hello");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error, "Workspace does not exist.");
});

Deno.test("resource abuse: a chat message over 200,000 characters is refused whole, and nothing is stored", async () => {
  await using app = await createTestApp();
  await app.json("/api/workspace/new", { json: { name: "Long" } });
  const response = await chat(app, "long", "x".repeat(6 * 1024 * 1024));
  assert.equal(response.status, 413);
  const body = await response.json();
  assert.equal(body.type, "abort");
  assert.match(body.error, /^The message is too long: at most 200,000 characters\./);
  assert.equal((await app.json<{ history: unknown[] }>("/api/workspace/long/chats")).body.history.length, 0);
  const edit = await app.json("/api/workspace/long/update-chat", {
    json: { chatId: 1, newText: "y".repeat(200_001) },
  });
  assert.equal(edit.status, 400);
});

Deno.test("stream-chat sends an abort frame when no LLM is configured and saves nothing", async () => {
  await using app = await createTestApp();
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    json: { name: "W" },
  });
  const frames = await readFrames(await chat(app, created.body.workspace.slug, "hello"));
  assert.equal(frames.length, 1);
  assert.equal(frames[0].type, "abort");
  assert.match(String(frames[0].error), /No LLM provider is set/);
  assert.equal((await app.deps.db.select().from(workspaceChats)).length, 0);
});

Deno.test("stream-chat relays the provider's message when the LLM refuses the request", async () => {
  await using llm = startFakeOpenAi({ apiKey: "right-key" });
  await using app = await createTestApp();
  await app.json("/api/system/update-env", {
    json: genericOpenAiSettings(llm.baseURL, { GenericOpenAiKey: "wrong-key" }),
  });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "W" },
  });
  const frames = await readFrames(await chat(app, created.body.workspace.slug, "hello"));
  assert.equal(frames.length, 1);
  assert.equal(frames[0].type, "abort");
  assert.match(String(frames[0].error), /Incorrect API key provided/);
  assert.equal(llm.authorizations.at(-1), "Bearer wrong-key", "the stored key is sent");
  assert.equal((await app.deps.db.select().from(workspaceChats)).length, 0);
});

Deno.test("stream-chat reports an unreachable LLM with a clear abort message", async () => {
  await using app = await createTestApp();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(`http://127.0.0.1:${port}/v1`) });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "W" },
  });
  const frames = await readFrames(await chat(app, created.body.workspace.slug, "hello"));
  assert.equal(frames.at(-1)?.type, "abort");
  assert.match(String(frames.at(-1)?.error), new RegExp(`Could not connect to http://127.0.0.1:${port}/v1`));
});

Deno.test("stream-chat ends a failing stream with abort then finalize, keeping the partial answer", async () => {
  await using llm = startFakeOpenAi();
  llm.setReply(() => ({
    chunks: ["Partial ", "answer ", "never"],
    failAfter: 2,
    message: "The model crashed",
  }));
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "W" },
  });
  const frames = await readFrames(await chat(app, created.body.workspace.slug, "hello"));
  assert.deepEqual(frames.map((frame) => frame.type), [
    "textResponseChunk",
    "textResponseChunk",
    "abort",
    "finalizeResponseStream",
  ]);
  assert.match(String(frames[2].error), /The model crashed/);
  const [row] = await app.deps.db.select().from(workspaceChats);
  assert.equal(frames[3].chatId, row.id);
  assert.equal(JSON.parse(row.response).text, "Partial answer ");
});

Deno.test("stream-chat saves the partial answer when the client goes away", async () => {
  await using llm = startFakeOpenAi();
  llm.setReply(() => ({ chunks: Array.from({ length: 40 }, (_, index) => `w${index} `), delayMs: 25 }));
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "W" },
  });
  const response = await chat(app, created.body.workspace.slug, "tell me a long story");
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = "";
  while ((received.match(/textResponseChunk/g) ?? []).length < 3) {
    received += (await reader.read()).value ?? "";
  }
  await reader.cancel();
  let rows: (typeof workspaceChats.$inferSelect)[] = [];
  for (let attempt = 0; attempt < 100 && rows.length === 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    rows = await app.deps.db.select().from(workspaceChats);
  }
  assert.equal(rows.length, 1, "the partial answer was saved");
  const saved = JSON.parse(rows[0].response).text as string;
  assert.ok(saved.startsWith("w0 w1 w2"), saved);
  assert.ok(!saved.includes("w39"), "generation stopped");
  assert.equal(rows[0].include, true);
  assert.equal(app.deps.streams.size, 0, "the stream was released");
});

/**
 * The model's streams get, each, the signal they were given; each stream's own signal (sse.ts) counts the abort
 * listeners added to it and still there.
 */
function watchSignals(app: TestApp) {
  const given: AbortSignal[] = [];
  const listening: Set<unknown>[] = [];
  const real = app.deps.providers.chatModel;
  app.deps.providers.chatModel = (override) => {
    const model = real(override);
    return {
      ...model,
      stream(request: ChatRequest, signal: AbortSignal) {
        given.push(signal);
        return model.stream(request, signal);
      },
    };
  };
  const open = app.deps.streams.open.bind(app.deps.streams);
  app.deps.streams.open = () => {
    const controller = open();
    const listeners = new Set<unknown>();
    listening.push(listeners);
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: unknown,
    ) => {
      if (type === "abort") listeners.add(listener);
      add(type, listener, options as AddEventListenerOptions);
    };
    signal.removeEventListener = (
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: unknown,
    ) => {
      if (type === "abort") listeners.delete(listener);
      remove(type, listener, options as EventListenerOptions);
    };
    return controller;
  };
  return { given, listening };
}

Deno.test("stream-chat: the client leaving aborts the model's request with its reason; an answer that ends leaves no listener on the stream's signal", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const { slug } = await workspaceWithDocument(app);
  const { given, listening } = watchSignals(app);

  // A whole answer: the model's signal never aborts, and nothing of the answer still listens to the stream's.
  const frames = await readFrames(await chat(app, slug, "What is the capital?"));
  assert.equal(frames.at(-1)?.type, "finalizeResponseStream");
  assert.equal(given.length, 1);
  assert.equal(given[0].aborted, false);
  assert.equal(listening.length, 1);
  assert.equal(listening[0].size, 0, "the answer's forwarding listener was removed");

  // The client leaves mid-answer: the model's signal aborts with the stream's reason (its connection closes).
  llm.setReply(() => ({ chunks: Array.from({ length: 40 }, (_, index) => `w${index} `), delayMs: 25 }));
  const response = await chat(app, slug, "tell me a long story");
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = "";
  while ((received.match(/textResponseChunk/g) ?? []).length < 2) {
    received += (await reader.read()).value ?? "";
  }
  // The answer's model call is the last (a follow-up's search-query rewrite came before it).
  const answering = given.at(-1)!;
  assert.notEqual(answering, given[0]);
  assert.equal(answering.aborted, false);
  await reader.cancel();
  assert.equal(answering.aborted, true, "the model's request was aborted");
  assert.equal((answering.reason as Error).message, "The client closed the connection");
  for (let attempt = 0; attempt < 100 && app.deps.streams.size > 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(app.deps.streams.size, 0, "the stream was released");
});

Deno.test("stream-chat: a client that aborts mid-answer logs no error, and the history marks the answer stopped", async () => {
  await using llm = startFakeOpenAi();
  llm.setReply(() => ({ chunks: Array.from({ length: 40 }, (_, index) => `w${index} `), delayMs: 25 }));
  const lines: { level: LogLevel; line: string }[] = [];
  await using app = await createTestApp({
    log: createLogger("debug", (line, level) => lines.push({ level, line })),
  });
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const { slug } = await workspaceWithDocument(app);
  const url = app.listen();

  // Over a real connection, as the browser's Stop does it: the fetch is aborted while frames still come.
  const abort = new AbortController();
  const response = await fetch(`${url}/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message: "Tell me about Freedonia" }),
    signal: abort.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = "";
  while ((received.match(/textResponseChunk/g) ?? []).length < 3) {
    received += (await reader.read()).value ?? "";
  }
  abort.abort();
  await reader.closed.catch(() => {});

  let history: ReturnType<typeof History.parse>["history"] = [];
  for (let attempt = 0; attempt < 100 && history.length === 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    history = History.parse((await app.json(`/api/workspace/${slug}/chats`)).body).history;
  }
  for (let attempt = 0; attempt < 50 && app.deps.streams.size > 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(app.deps.streams.size, 0, "the stream was released");
  const errors = lines.filter((entry) => entry.level === "error").map((entry) => entry.line);
  assert.deepEqual(errors, [], "a client leaving is not an error");
  const answer = history[1];
  assert.equal(answer?.role, "assistant");
  if (answer?.role === "assistant") {
    assert.match(answer.content, /^w0 w1 w2/);
    assert.equal(answer.stopped, true, "a stopped answer says so");
    assert.equal(answer.sources[0]?.title, "freedonia.txt", "with the citations it was given");
    // Edited, the answer is the user's text and no longer a stopped generation.
    const edited = await app.json(`/api/workspace/${slug}/update-chat`, {
      json: { chatId: answer.chatId, newText: "My own words.", role: "assistant" },
    });
    assert.equal(edited.status, 200);
    const after = History.parse((await app.json(`/api/workspace/${slug}/chats`)).body).history[1];
    assert.equal(after.role === "assistant" && after.stopped, undefined);
  }

  // A finished answer carries no mark, so the history of older servers and of complete answers is unchanged.
  llm.setReply(() => ({ chunks: ["Done."] }));
  await readFrames(await chat(app, slug, "And now in full?"));
  const complete = History.parse((await app.json(`/api/workspace/${slug}/chats`)).body).history.at(-1);
  assert.equal(complete?.role === "assistant" && "stopped" in complete, false);
});

Deno.test("stream-chat in query mode refuses without context and saves the refusal hidden", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Q" },
  });
  const slug = created.body.workspace.slug;
  await app.deps.db.update(workspaces).set({ chatMode: "query" }).where(eq(workspaces.slug, slug));
  const frames = await readFrames(await chat(app, slug, "anything?"));
  assert.equal(frames.length, 1);
  assert.equal(frames[0].type, "textResponse");
  assert.equal(
    frames[0].textResponse,
    "There is no relevant information in this workspace to answer your query.",
  );
  assert.equal(frames[0].id, frames[0].uuid);
  assert.equal(llm.chatRequests.length, 0, "the LLM is not asked");
  const [row] = await app.deps.db.select().from(workspaceChats);
  assert.equal(row.include, false);
  assert.deepEqual((await app.json(`/api/workspace/${slug}/chats`)).body, { history: [] });
});

Deno.test("stream-chat wraps streamed reasoning in <think> and keeps it in the saved text", async () => {
  await using llm = startFakeOpenAi();
  llm.setReply(() => ({ reasoning: ["Let me ", "think."], chunks: ["Done."] }));
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "R" },
  });
  const frames = await readFrames(await chat(app, created.body.workspace.slug, "why?"));
  const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
    .join("");
  assert.equal(text, "<think>Let me think.</think>Done.");
});

Deno.test("threads: a new thread has its own history and stream-chat", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "T" },
  });
  const slug = created.body.workspace.slug;
  const thread = await app.json<{ thread: { slug: string; name: string } }>(
    `/api/workspace/${slug}/thread/new`,
    {
      method: "POST",
    },
  );
  assert.equal(thread.body.thread.name, "Thread");
  const threadSlug = thread.body.thread.slug;
  const frames = await readFrames(
    await app.request(`/api/workspace/${slug}/thread/${threadSlug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "in a thread" }),
    }),
  );
  assert.equal(frames.at(-2)?.type, "finalizeResponseStream");
  assert.deepEqual(frames.at(-1), {
    action: "rename_thread",
    thread: { slug: threadSlug, name: "in a thread" },
  });
  const threadHistory = await app.json<{ history: unknown[] }>(
    `/api/workspace/${slug}/thread/${threadSlug}/chats`,
  );
  assert.equal(threadHistory.body.history.length, 2);
  const defaultHistory = await app.json<{ history: unknown[] }>(`/api/workspace/${slug}/chats`);
  assert.equal(defaultHistory.body.history.length, 0);
  const threads = await app.json<{ threads: unknown[]; defaultThreadChatCount: number }>(
    `/api/workspace/${slug}/threads`,
  );
  assert.equal(threads.body.threads.length, 1);
  assert.equal(threads.body.defaultThreadChatCount, 0);

  const missing = await app.request(`/api/workspace/${slug}/thread/nope/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message: "x" }),
  });
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error, "Workspace thread does not exist.");
});
