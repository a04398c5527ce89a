import assert from "node:assert/strict";
import { ChatFrame, History } from "../../shared/api/chat.ts";
import { createLogger } from "../log.ts";
import { type ChatCompletionRequest, echoReply, startFakeOpenAi } from "../testing/fake_openai.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { configuredTestApp, readFrames, type TestApp } from "../testing/test_app.ts";
import { queryOf, REWRITE_MAX_TOKENS, REWRITE_TURNS, rewriteMessages } from "./rewrite.ts";

const FREEDONIA = "Freedonia is a small country in the hills. The Zorn is the longest river of Freedonia.";
const SYLVANIA = "Sylvania borders the sea. Sylvania exports salt, and its fishing boats are painted blue.";

/** The rewriting call is the one asking for at most REWRITE_MAX_TOKENS tokens. */
const isRewrite = (request: ChatCompletionRequest) => request.max_tokens === REWRITE_MAX_TOKENS;

async function atlas(app: TestApp) {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Atlas" },
  });
  const slug = created.body.workspace.slug;
  for (const [name, text] of [["freedonia.txt", FREEDONIA], ["sylvania.txt", SYLVANIA]]) {
    const form = new FormData();
    form.append("file", new File([text], name, { type: "text/plain" }));
    const upload = await app.json<{ documents: { location: string }[] }>(`/api/workspace/${slug}/upload`, {
      method: "POST",
      body: form,
    });
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    const embedded = await app.json(`/api/workspace/${slug}/update-embeddings`, {
      json: { adds: [upload.body.documents[0].location] },
    });
    assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
  }
  // One snippet per answer, so which document the search found is plain.
  const updated = await app.json(`/api/workspace/${slug}/update`, {
    json: { topN: 1, similarityThreshold: 0 },
  });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  return slug;
}

async function ask(app: TestApp, slug: string, message: string) {
  const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message }),
  });
  assert.equal(response.status, 200);
  const frames = await readFrames(response);
  for (const frame of frames) ChatFrame.parse(frame);
  const closing = frames.find((frame) => frame.type === "textResponseChunk" && frame.close === true);
  assert.ok(closing, JSON.stringify(frames));
  return {
    closing,
    text: frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
      .join(""),
    titles: (closing.sources as { title: string }[]).map((source) => source.title),
  };
}

Deno.test("a follow-up is searched as the chat model rewrites it; the sources frame and the history carry the query", async () => {
  await using llm = startFakeOpenAi();
  llm.setReply((request) =>
    isRewrite(request) ? { chunks: ['"longest river of ', 'Freedonia"'] } : echoReply(request)
  );
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const slug = await atlas(app);

  const first = await ask(app, slug, "Tell me about Freedonia.");
  assert.equal(llm.chatRequests.filter(isRewrite).length, 0, "a first message is searched as written");
  assert.equal(first.closing.searchQuery, undefined);
  assert.deepEqual(first.titles, ["freedonia.txt"]);

  // Alone, "its fishing boats … the longest river?" is closer to Sylvania's text than to Freedonia's.
  const second = await ask(app, slug, "And its fishing boats and salt, is that the longest river?");
  const rewrites = llm.chatRequests.filter(isRewrite);
  assert.equal(rewrites.length, 1);
  assert.equal(rewrites[0].temperature, 0);
  const sent = rewrites[0].messages.map((message) => message.content).join("\n");
  assert.match(sent, /User: Tell me about Freedonia\./, "the earlier exchange is in the call");
  assert.match(sent, /Last message: And its fishing boats/);
  assert.equal(second.closing.searchQuery, "longest river of Freedonia");
  assert.deepEqual(second.titles, ["freedonia.txt"], "the rewritten query was searched");
  // The answer itself still answers the message as the user wrote it.
  assert.match(second.text, /You asked: And its fishing boats and salt, is that the longest river\?/);

  const history = History.parse((await app.json(`/api/workspace/${slug}/chats`)).body).history;
  const answers = history.filter((entry) => entry.role === "assistant");
  assert.equal(answers.length, 2);
  assert.equal("searchQuery" in answers[0], false);
  assert.equal(answers[1].role === "assistant" && answers[1].searchQuery, "longest river of Freedonia");
});

Deno.test("the workspace switch turns rewriting off: the follow-up is searched as written", async () => {
  await using llm = startFakeOpenAi();
  llm.setReply((request) =>
    isRewrite(request) ? { chunks: ["longest river of Freedonia"] } : echoReply(request)
  );
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const slug = await atlas(app);
  const off = await app.json<{ workspace: { queryRewrite: boolean } }>(`/api/workspace/${slug}/update`, {
    json: { queryRewrite: "false" },
  });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  assert.equal(off.body.workspace.queryRewrite, false);

  await ask(app, slug, "Tell me about Freedonia.");
  const second = await ask(app, slug, "And its fishing boats and salt, is that the longest river?");
  assert.equal(llm.chatRequests.filter(isRewrite).length, 0, "no rewriting call");
  assert.equal(second.closing.searchQuery, undefined);
  assert.deepEqual(second.titles, ["sylvania.txt"], "the message as written finds the other document");

  const bad = await app.json(`/api/workspace/${slug}/update`, { json: { queryRewrite: "maybe" } });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /Follow-up question rewriting must be true or false\./);
});

Deno.test("a failing rewriting call, or one that does not answer in time, leaves the message searched as written and logs why", async () => {
  await using llm = startFakeOpenAi();
  const lines: string[] = [];
  await using app = await configuredTestApp({
    llm: llm.baseURL,
    log: createLogger("warn", (line) => lines.push(line)),
  });
  const slug = await atlas(app);
  await ask(app, slug, "Tell me about Freedonia.");

  llm.setReply((request) =>
    isRewrite(request) ? { status: 500, message: "The model is overloaded" } : echoReply(request)
  );
  const failed = await ask(app, slug, "And its fishing boats and salt, is that the longest river?");
  assert.equal(failed.closing.searchQuery, undefined);
  assert.deepEqual(failed.titles, ["sylvania.txt"]);
  assert.match(failed.text, /You asked: And its fishing boats/, "the chat still answers");
  assert.ok(
    lines.some((line) =>
      /Query rewriting failed; the message is searched as written/.test(line) && /overloaded/.test(line)
    ),
    lines.join("\n"),
  );

  // The rewriting call never answers: after its time-out the message is searched as written.
  llm.setReply((request) => isRewrite(request) ? { waitMs: 60_000, chunks: ["never"] } : echoReply(request));
  const slow = await ask(app, slug, "And its fishing boats and salt, is that the longest river?");
  assert.equal(slow.closing.searchQuery, undefined);
  assert.deepEqual(slow.titles, ["sylvania.txt"]);
  assert.match(slow.text, /You asked: And its fishing boats/);
  assert.ok(
    lines.some((line) => /Query rewriting failed/.test(line) && /no answer within 4000 ms/.test(line)),
  );
});

Deno.test("the developer API's workspace shows queryRewrite and takes it on create and update", async () => {
  await using app = await configuredTestApp();
  const { key } = await makeApiKey(app);
  const created = await app.json<{ workspace: { slug: string; queryRewrite: boolean } }>(
    "/api/v1/workspace/new",
    withKey(key, { json: { name: "Notes", queryRewrite: false } }),
  );
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.workspace.queryRewrite, false);
  const updated = await app.json<{ workspace: { queryRewrite: boolean } }>(
    `/api/v1/workspace/${created.body.workspace.slug}/update`,
    withKey(key, { json: { queryRewrite: true } }),
  );
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  assert.equal(updated.body.workspace.queryRewrite, true);
  const listed = await app.json<{ workspaces: { queryRewrite: boolean }[] }>(
    "/api/v1/workspaces",
    withKey(key),
  );
  assert.deepEqual(listed.body.workspaces.map((workspace) => workspace.queryRewrite), [true]);
});

Deno.test("rewriteMessages keeps the last few exchanges; queryOf takes the query out of the model's answer", () => {
  const history = Array.from(
    { length: 5 },
    (_, index) => ({ prompt: `question ${index}`, response: `answer ${index}` }),
  );
  const [system, user] = rewriteMessages(history, "and then?");
  assert.equal(system.role, "system");
  assert.doesNotMatch(user.content, /question 1\b/);
  assert.match(user.content, new RegExp(`question ${5 - REWRITE_TURNS}`));
  assert.match(user.content, /Last message: and then\?/);
  assert.equal(queryOf('  "population of Freedonia"\nbecause…'), "population of Freedonia");
  assert.equal(
    queryOf("<think>they mean Freedonia</think>Search query: population of Freedonia"),
    "population of Freedonia",
  );
  assert.equal(queryOf("   "), null);
  assert.equal(queryOf("x".repeat(401)), null);
});
