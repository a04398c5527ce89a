import assert from "node:assert/strict";
import OpenAI from "openai";
import { eq } from "drizzle-orm";
import { workspaceChats } from "../../db/schema.ts";
import { History } from "../../shared/api/chat.ts";
import {
  OpenAiCompletion,
  OpenAiEmbeddings,
  OpenAiModels,
  OpenAiVectorStores,
} from "../../shared/api/openai.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import type { TestApp } from "../testing/test_app.ts";
import { setup, workspace } from "./chat_fixtures.ts";

const post = (app: TestApp, key: string, path: string, json: unknown) =>
  app.json<Record<string, unknown>>(`/api/v1/openai${path}`, withKey(key, { json }));

/** Raw SSE `data:` payloads, `[DONE]` included. */
async function dataLines(response: Response): Promise<string[]> {
  const text = await response.text();
  return text.split("\n\n").filter(Boolean).map((block) => {
    assert.ok(block.startsWith("data: ") && !block.includes("\n"), block);
    return block.slice(6);
  });
}

Deno.test("the official openai SDK lists models, completes, streams and embeds against Lectern", async () => {
  await using env = await setup();
  const { app, key, llm } = env;
  const { slug } = await workspace(app, "Atlas");
  const client = new OpenAI({ baseURL: `${app.listen()}/api/v1/openai`, apiKey: key, maxRetries: 0 });

  const models = await client.models.list();
  assert.deepEqual(models.data.map((model) => [model.id, model.object, model.owned_by]), [
    [slug, "model", "generic-openai"],
  ]);
  assert.equal(typeof models.data[0].created, "number");

  const completion = await client.chat.completions.create({
    model: slug,
    messages: [
      { role: "system", content: "You are terse." },
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Hi." },
      { role: "user", content: "What is the capital of Freedonia?" },
    ],
    temperature: 0.2,
  });
  assert.equal(completion.object, "chat.completion");
  assert.equal(completion.model, slug);
  assert.equal(completion.choices[0].message.role, "assistant");
  assert.equal(
    completion.choices[0].message.content,
    "You asked: What is the capital of Freedonia?. I saw 1 context blocks.",
  );
  assert.equal(completion.choices[0].finish_reason, "stop");
  assert.equal(typeof completion.usage?.total_tokens, "number");
  const sources = (completion as unknown as { sources: { text: string }[] }).sources;
  assert.match(sources[0].text, /Fredville/);
  // The system message replaced the workspace's prompt; the conversation was the history; the temperature held.
  // A follow-up: the search query was rewritten first (server/chat/rewrite.ts), then the answer asked for.
  assert.equal(llm.chatRequests.length, 2);
  assert.match(llm.chatRequests[0].messages[0].content, /^You rewrite the user's last message/);
  const sent = llm.chatRequests[1];
  assert.match(sent.messages[0].content, /^You are terse\.\nContext:\n\[CONTEXT 0\]/);
  assert.deepEqual(sent.messages.slice(1).map((message) => [message.role, message.content]), [
    ["user", "Hello"],
    ["assistant", "Hi."],
    ["user", "What is the capital of Freedonia?"],
  ]);
  assert.equal(sent.temperature, 0.2);

  const stream = await client.chat.completions.create({
    model: slug,
    messages: [{ role: "user", content: [{ type: "text", text: "Stream the capital of Freedonia" }] }],
    stream: true,
  });
  let text = "";
  let last: OpenAI.Chat.Completions.ChatCompletionChunk | null = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? "";
    last = chunk;
  }
  assert.equal(text, "You asked: Stream the capital of Freedonia. I saw 1 context blocks.");
  assert.equal(last?.choices[0].finish_reason, "stop");
  assert.equal(typeof last?.usage?.prompt_tokens, "number");

  // The SDK's stream helper, which checks roles and finish reasons, builds the same answer.
  const helper = client.chat.completions.stream({
    model: slug,
    messages: [{ role: "user", content: "Freedonia capital again" }],
  });
  const final = await helper.finalChatCompletion();
  assert.equal(
    final.choices[0].message.content,
    "You asked: Freedonia capital again. I saw 1 context blocks.",
  );

  const embedded = await client.embeddings.create({ model: "anything", input: ["one text", "another"] });
  assert.equal(embedded.object, "list");
  assert.equal(embedded.data.length, 2);
  assert.equal(embedded.data[1].index, 1);
  assert.ok(embedded.data[0].embedding.length > 0);
  assert.ok(embedded.data[0].embedding.every((value) => Number.isFinite(value)));
  const float = await client.embeddings.create({ model: "x", input: "one text", encoding_format: "float" });
  assert.deepEqual(
    Array.from(float.data[0].embedding, (value) => Math.fround(value)),
    Array.from(embedded.data[0].embedding, (value) => Math.fround(value)),
    "the base64 answer decodes to the same vector as the float one",
  );

  // Completions are kept hidden from the UI's history.
  const history = await app.json(`/api/workspace/${slug}/chats`);
  assert.deepEqual(History.parse(history.body).history, []);
  const rows = await app.deps.db.select().from(workspaceChats);
  assert.equal(rows.length, 3);
  assert.ok(rows.every((row) => row.apiSessionId?.startsWith("openai:")));
});

Deno.test("POST /api/v1/openai/chat/completions: shapes of the answer and of the stream, which ends with [DONE]", async () => {
  await using env = await setup();
  const { app, key } = env;
  const { slug } = await workspace(app, "Atlas");

  const whole = await post(app, key, "/chat/completions", {
    model: slug,
    messages: [{ role: "user", content: "Capital of Freedonia?" }],
  });
  assert.equal(whole.status, 200);
  const answer = OpenAiCompletion.parse(whole.body);
  assert.deepEqual(Object.keys(whole.body), [
    "id",
    "object",
    "created",
    "model",
    "choices",
    "usage",
    "sources",
  ]);
  assert.deepEqual(answer.choices[0], {
    index: 0,
    message: { role: "assistant", content: "You asked: Capital of Freedonia?. I saw 1 context blocks." },
    logprobs: null,
    finish_reason: "stop",
  });
  const [row] = await app.deps.db.select().from(workspaceChats);
  assert.equal(row.prompt, "Capital of Freedonia?");

  const response = await app.request(
    "/api/v1/openai/chat/completions",
    withKey(key, {
      method: "POST",
      body: JSON.stringify({
        model: slug,
        stream: true,
        messages: [{ role: "user", content: "Capital of Freedonia?" }],
      }),
    }),
  );
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const lines = await dataLines(response);
  assert.equal(lines.at(-1), "[DONE]");
  const chunks = lines.slice(0, -1).map((line) => JSON.parse(line));
  assert.ok(chunks.every((chunk) => chunk.object === "chat.completion" && chunk.model === slug));
  assert.ok(chunks.every((chunk) => chunk.id === chunks[0].id));
  assert.equal(
    chunks.map((chunk) => chunk.choices[0].delta.content).join(""),
    "You asked: Capital of Freedonia?. I saw 1 context blocks.",
  );
  assert.ok(chunks.slice(0, -1).every((chunk) => chunk.choices[0].finish_reason === null));
  const end = chunks.at(-1);
  assert.equal(end.choices[0].finish_reason, "stop");
  assert.equal(typeof end.usage.total_tokens, "number");
  assert.match(end.sources[0].text, /Fredville/);
});

Deno.test("OpenAI-compatible completions: a query workspace without context refuses; a failing model is an error the SDK raises", async () => {
  await using env = await setup();
  const { app, key, llm } = env;
  const { slug } = await workspace(app, "Empty", false);
  await app.json(`/api/workspace/${slug}/update`, { json: { chatMode: "query" } });

  const refused = await post(app, key, "/chat/completions", {
    model: slug,
    messages: [{ role: "user", content: "Hi" }],
  });
  assert.equal(refused.status, 200);
  const content = OpenAiCompletion.parse(refused.body).choices[0].message.content;
  assert.equal(content, "There is no relevant information in this workspace to answer your query.");

  await app.json(`/api/workspace/${slug}/update`, { json: { chatMode: "chat" } });
  llm.setReply(() => ({ status: 500, message: "The model is down" }));
  const client = new OpenAI({ baseURL: `${app.listen()}/api/v1/openai`, apiKey: key, maxRetries: 0 });
  await assert.rejects(
    client.chat.completions.create({ model: slug, messages: [{ role: "user", content: "Hi" }] }),
    (error: unknown) =>
      error instanceof OpenAI.APIError && error.status === 502 && /The model is down/.test(error.message),
  );
  const stream = await client.chat.completions.create({
    model: slug,
    messages: [{ role: "user", content: "Hi" }],
    stream: true,
  });
  await assert.rejects(
    (async () => {
      for await (const _ of stream) { /* the error chunk raises */ }
    })(),
    (error: unknown) => error instanceof OpenAI.APIError && /The model is down/.test(error.message),
  );
});

Deno.test("POST /api/v1/openai/chat/completions refusals: last message, bad body, unknown model, images", async () => {
  await using env = await setup();
  const { app, key, llm } = env;
  const { slug } = await workspace(app, "Atlas", false);
  const abort = (
    answer: { status: number; body: Record<string, unknown> },
    status: number,
    error: string,
  ) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.type, "abort");
    assert.equal(answer.body.textResponse, null);
    assert.equal(answer.body.error, error);
  };
  const noUser = "No user prompt found. Must be last element in message array with 'user' role.";
  abort(
    await post(app, key, "/chat/completions", {
      model: slug,
      messages: [{ role: "assistant", content: "Hi" }],
    }),
    400,
    noUser,
  );
  abort(await post(app, key, "/chat/completions", { model: slug, messages: [] }), 400, noUser);
  abort(
    await post(app, key, "/chat/completions", { model: slug, messages: "Hi" }),
    400,
    "messages must be a list of {role, content} messages.",
  );
  abort(
    await post(app, key, "/chat/completions", { messages: [{ role: "user", content: "Hi" }] }),
    400,
    "model must be the slug of a workspace.",
  );
  abort(
    await post(app, key, "/chat/completions", {
      model: slug,
      messages: [{ role: "user", content: "Hi" }],
      temperature: "hot",
    }),
    400,
    "temperature must be a number from 0 to 2.",
  );
  abort(
    await post(app, key, "/chat/completions", { model: slug, messages: [{ role: "user", content: " " }] }),
    400,
    "Message is empty.",
  );
  abort(
    await post(app, key, "/chat/completions", {
      model: slug,
      messages: [{
        role: "user",
        content: [{ type: "text", text: "Look" }, {
          type: "image_url",
          image_url: { url: "https://example.com/a.png" },
        }],
      }],
    }),
    400,
    "uploaded_image_0 is not a PNG, JPEG, WebP or GIF image sent as a data URL.",
  );
  // An unknown model: 401 without a body, as the reference.
  const unknown = await app.request(
    "/api/v1/openai/chat/completions",
    withKey(key, {
      method: "POST",
      body: JSON.stringify({ model: "nope", messages: [{ role: "user", content: "Hi" }] }),
    }),
  );
  assert.equal(unknown.status, 401);
  assert.equal(await unknown.text(), "");
  assert.equal(llm.chatRequests.length, 0);
  assert.equal((await app.deps.db.select().from(workspaceChats)).length, 0);

  // An image sent as a data URL reaches the model.
  const pixel =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const withImage = await post(app, key, "/chat/completions", {
    model: slug,
    messages: [{
      role: "user",
      content: [{ type: "text", text: "Look" }, { type: "image_url", image_url: { url: pixel } }],
    }],
  });
  assert.equal(withImage.status, 200, JSON.stringify(withImage.body));
  assert.match(JSON.stringify(llm.chatRequests[0].messages.at(-1)), /data:image\/png;base64/);
  const [row] = await app.deps.db.select().from(workspaceChats).where(eq(workspaceChats.prompt, "Look"));
  assert.ok(row);
});

Deno.test("OpenAI-compatible calls and keys: listings follow the key's workspaces, completions its chat permission", async () => {
  await using env = await setup();
  const { app, key } = env;
  const atlas = await workspace(app, "Atlas");
  const other = await workspace(app, "Other", false);
  const chatKey =
    (await makeApiKey(app, { scope: "workspaces", workspaceIds: [atlas.id], permissions: ["chat"] }))
      .key;
  const readKey =
    (await makeApiKey(app, { scope: "workspaces", workspaceIds: [atlas.id], permissions: ["read"] }))
      .key;
  const readOnly = (await makeApiKey(app, { scope: "read" })).key;

  const models = async (k: string) =>
    OpenAiModels.parse((await app.json("/api/v1/openai/models", withKey(k))).body).data.map((model) =>
      model.id
    );
  assert.deepEqual(await models(key), [atlas.slug, other.slug]);
  assert.deepEqual(await models(chatKey), [atlas.slug]);
  assert.deepEqual(await models(readOnly), [atlas.slug, other.slug]);

  const stores = await app.json("/api/v1/openai/vector_stores", withKey(chatKey));
  assert.deepEqual(OpenAiVectorStores.parse(stores.body), {
    first_id: atlas.slug,
    last_id: atlas.slug,
    data: [{
      id: atlas.slug,
      object: "vector_store",
      name: "Atlas",
      file_counts: { total: 1 },
      provider: "lancedb",
    }],
    has_more: false,
  });
  const all = OpenAiVectorStores.parse((await app.json("/api/v1/openai/vector_stores", withKey(key))).body);
  assert.deepEqual(all.data.map((store) => [store.id, store.file_counts.total]), [[atlas.slug, 1], [
    other.slug,
    0,
  ]]);
  const next = await app.json("/api/v1/openai/vector_stores?after=atlas", withKey(key));
  assert.deepEqual(next.body, { data: [], has_more: false });

  const ask = (k: string, model: string) =>
    post(app, k, "/chat/completions", { model, messages: [{ role: "user", content: "Hi" }] });
  assert.equal((await ask(chatKey, atlas.slug)).status, 200);
  const elsewhere = await ask(chatKey, other.slug);
  assert.equal(elsewhere.status, 403);
  assert.match(String(elsewhere.body.error), /cannot use the workspace "other"/);
  const unknown = await ask(chatKey, "nope");
  assert.equal(unknown.status, 403, "a limited key learns nothing of workspaces it cannot use");
  const noChat = await ask(readKey, atlas.slug);
  assert.equal(noChat.status, 403);
  assert.match(String(noChat.body.error), /cannot chat/);
  const ro = await ask(readOnly, atlas.slug);
  assert.equal(ro.status, 403);
  assert.equal(ro.body.error, "This API key is read-only, so it cannot make changes.");
  const none = await post(app, "not-a-key", "/chat/completions", {});
  assert.deepEqual(none, { status: 403, body: { error: "No valid api key found." } });

  // Embeddings: any valid key (they read and change no stored data).
  for (const k of [key, chatKey, readKey, readOnly]) {
    const embedded = await post(app, k, "/embeddings", { input: "text" });
    assert.equal(embedded.status, 200);
    OpenAiEmbeddings.parse(embedded.body);
  }
});

Deno.test("POST /api/v1/openai/embeddings: OpenAI's answer, the reference's `inputs`, and its refusals", async () => {
  await using env = await setup();
  const { app, key } = env;
  const answer = await post(app, key, "/embeddings", { inputs: ["a", "b"], model: null });
  assert.equal(answer.status, 200);
  const parsed = OpenAiEmbeddings.parse(answer.body);
  assert.deepEqual(parsed.data.map((item) => [item.object, item.index]), [["embedding", 0], [
    "embedding",
    1,
  ]]);
  assert.equal(parsed.model, app.deps.providers.embedder().modelId);
  assert.ok(parsed.usage.total_tokens > 0);

  const refused = async (body: unknown, error: string) => {
    const answer = await post(app, key, "/embeddings", body);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, { error });
  };
  await refused({}, "Input array cannot be empty.");
  await refused({ input: [] }, "Input array cannot be empty.");
  await refused({ input: ["a", 2] }, "All inputs to be embedded must be strings.");
  await refused({ input: "a", encoding_format: "int8" }, 'encoding_format must be "float" or "base64".');
  await refused({ input: Array(2049).fill("a") }, "At most 2048 inputs can be embedded at once.");
});
