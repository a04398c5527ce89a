import assert from "node:assert/strict";
import { ChatFrame } from "../../shared/api/chat.ts";
import { configuredTestApp, type TestApp } from "../testing/test_app.ts";
import { type ChatCompletionRequest, startFakeOpenAi } from "../testing/fake_openai.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { openAgentSocket, sendChat } from "./testing.ts";

const FREEDONIA = "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.";

async function workspace(app: TestApp, name: string, token?: string) {
  const auth = token ? bearer(token) : {};
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    ...auth,
    json: { name },
  });
  return created.body.workspace.slug;
}

async function workspaceWithDocument(app: TestApp, name = "Atlas", token?: string) {
  const slug = await workspace(app, name, token);
  const auth = token ? bearer(token).headers : {};
  const form = new FormData();
  form.append("file", new File([FREEDONIA], "freedonia.txt", { type: "text/plain" }));
  const upload = await app.json<{ documents: { location: string }[] }>(`/api/workspace/${slug}/upload`, {
    method: "POST",
    body: form,
    headers: auth,
  });
  const location = upload.body.documents[0].location;
  const embedded = await app.json(`/api/workspace/${slug}/update-embeddings`, {
    headers: auth,
    json: { adds: [location] },
  });
  assert.equal(embedded.status, 200);
  return slug;
}

/** The last message the model got: a tool's result, or the user's text. */
const lastMessage = (request: ChatCompletionRequest) => request.messages.at(-1)!;

/** Scripts a model that calls `call` first, then answers with what the tool gave back. */
function callThenAnswer(call: { name: string; arguments: Record<string, unknown> }) {
  return (request: ChatCompletionRequest) => {
    const last = lastMessage(request);
    if (last.role === "tool") return { chunks: ["Tool said: ", String(last.content).slice(0, 200)] };
    return { toolCalls: [call] };
  };
}

async function invoke(app: TestApp, slug: string, message: string, token?: string) {
  const frames = await sendChat(app, slug, message, token ? bearer(token).headers : {});
  for (const frame of frames) ChatFrame.parse(frame);
  const init = frames.find((frame) => frame.type === "agentInitWebsocketConnection");
  assert.ok(init, JSON.stringify(frames));
  return { frames, uuid: String(init.websocketUUID) };
}

Deno.test("@agent hands off to the socket, searches the documents with citations, saves the chat and ends on /exit", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const base = app.listen();
  const slug = await workspaceWithDocument(app);
  assert.deepEqual(
    (await app.json(`/api/workspace/${slug}/is-agent-command-available`)).body,
    { showAgentCommand: true },
  );
  llm.setReply(callThenAnswer({ name: "search-documents", arguments: { query: "capital of Freedonia" } }));

  const { frames, uuid } = await invoke(app, slug, "@agent what is the capital of Freedonia?");
  assert.deepEqual(frames.map((frame) => frame.type), ["agentInitWebsocketConnection", "statusResponse"]);
  assert.equal(
    frames[1].textResponse,
    "@agent: Swapping over to agent chat. Type /exit to exit agent execution loop early.",
  );

  const socket = openAgentSocket(base, uuid);
  const answer = await socket.next((message) => message.from === "@agent");
  assert.match(
    String(answer.content),
    /^Tool said: \[1\] freedonia\.txt\n.*capital of Freedonia is Fredville/s,
  );
  assert.equal((answer.sources as unknown[]).length, 1);
  assert.ok(
    socket.messages.some((message) => message.type === "toolCall" && message.name === "search-documents"),
  );
  assert.ok(
    socket.messages.some((message) =>
      message.type === "statusResponse" &&
      message.content === 'Searching the documents for "capital of Freedonia".'
    ),
  );
  // The model was offered the tools in OpenAI's format, and got the question without the handle.
  const first = llm.chatRequests[0];
  assert.ok(first.tools?.some((tool) => tool.function.name === "search-documents"));
  assert.equal(lastMessage(first).content, "what is the capital of Freedonia?");
  assert.equal(llm.chatRequests[1].messages.at(-2)?.tool_calls?.[0].function.name, "search-documents");

  await socket.next((message) => message.type === "WAITING_ON_INPUT");
  llm.setReply(() => ({ chunks: ["Second ", "answer."] }));
  socket.send("and thank you");
  const second = await socket.next((message) =>
    message.from === "@agent" && message.content === "Second answer."
  );
  assert.ok(second);
  socket.send("/exit");
  const closed = await socket.closed;
  assert.equal(closed.code, 1000);
  assert.equal(closed.reason, "Agent session complete.");

  const history = await app.json<{ history: { role: string; content: string }[] }>(
    `/api/workspace/${slug}/chats`,
  );
  assert.deepEqual(history.body.history.map((entry) => [entry.role, entry.content.slice(0, 24)]), [
    ["user", "@agent what is the capit"],
    ["assistant", "Tool said: [1] freedonia"],
    ["user", "and thank you"],
    ["assistant", "Second answer."],
  ]);

  // Single use: the same invocation cannot open a second socket.
  const again = openAgentSocket(base, uuid);
  const refused = await again.closed;
  assert.equal(refused.code, 4401);
  assert.equal(refused.reason, "This agent invocation does not exist, was used already or has expired.");
});

Deno.test("a failing tool reports its error to the model and the person; a looping model stops at the step limit", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const base = app.listen();
  const slug = await workspace(app, "Loops");
  const saved = await app.json("/api/agents/settings", { json: { maxSteps: 3 } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));

  llm.setReply(callThenAnswer({ name: "summarize-document", arguments: { title: "missing.txt" } }));
  const { uuid } = await invoke(app, slug, "@agent summarize missing.txt");
  const socket = openAgentSocket(base, uuid);
  const answer = await socket.next((message) => message.from === "@agent");
  assert.equal(answer.content, 'Tool said: Error: The workspace has no document titled "missing.txt".');
  assert.ok(socket.messages.some((message) =>
    message.type === "toolResult" && message.ok === false &&
    message.content === 'Error: The workspace has no document titled "missing.txt".'
  ));
  assert.ok(socket.messages.some((message) =>
    message.type === "statusResponse" &&
    message.content === 'summarize-document failed: The workspace has no document titled "missing.txt".'
  ));

  await socket.next((message) => message.type === "WAITING_ON_INPUT");
  const before = llm.chatRequests.length;
  llm.setReply(() => ({ toolCalls: [{ name: "list-documents", arguments: {} }] }));
  socket.send("keep listing");
  const stopped = await socket.next((message) => message.from === "@agent" && message !== answer);
  assert.equal(
    stopped.content,
    "The agent stopped after 3 steps without finishing. Ask again more precisely, or raise the step limit in the agent settings.",
  );
  assert.equal(llm.chatRequests.length - before, 3);
  socket.close();
  await socket.closed;
});

Deno.test("the agent's socket is refused to another user, to a foreign page and without a session", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const base = app.listen();
  const admin = await multiUserInstance(app);
  const slug = await workspace(app, "Private", admin.token);
  const other = await addUser(app, admin, "bob", "admin");

  const { uuid } = await invoke(app, slug, "@agent hello", admin.token);
  const stolen = openAgentSocket(base, uuid, { token: other.token });
  assert.deepEqual(await stolen.closed, {
    code: 4401,
    reason: "This agent invocation belongs to another session.",
  });
  assert.equal(stolen.messages[0].type, "wssFailure");

  const { uuid: second } = await invoke(app, slug, "@agent hello", admin.token);
  const anonymous = openAgentSocket(base, second);
  assert.equal((await anonymous.closed).code, 4401);

  // A page of another site cannot open it: the origin guard answers 403 before the upgrade.
  const { uuid: third } = await invoke(app, slug, "@agent hello", admin.token);
  const response = await fetch(`${base}/api/agent-invocation/${third}`, {
    headers: {
      Origin: "https://evil.example",
      Upgrade: "websocket",
      Connection: "Upgrade",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
      "Sec-WebSocket-Version": "13",
    },
  });
  assert.equal(response.status, 403);
  await response.body?.cancel();
  // …and the invocation is still there for its own page.
  llm.setReply(() => ({ chunks: ["Hello there."] }));
  const own = openAgentSocket(base, third, { token: admin.token });
  const answer = await own.next((message) => message.from === "@agent");
  assert.equal(answer.content, "Hello there.");
  own.close();
  await own.closed;
});

Deno.test("a default user's agent cannot search a workspace they are not a member of", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const base = app.listen();
  const admin = await multiUserInstance(app);
  const secret = await workspaceWithDocument(app, "Secret", admin.token);
  const open = await workspace(app, "Open", admin.token);
  const user = await addUser(app, admin, "dora", "default");
  const [openRow] = await app.deps.db.query.workspaces.findMany({ where: (w, { eq }) => eq(w.slug, open) });
  const added = await app.json(`/api/admin/workspaces/${openRow.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [user.user.id] },
  });
  assert.equal(added.status, 200, JSON.stringify(added.body));

  llm.setReply(
    callThenAnswer({ name: "search-documents", arguments: { query: "capital", workspace: secret } }),
  );
  const { uuid } = await invoke(app, open, "@agent search the secret workspace", user.token);
  const socket = openAgentSocket(base, uuid, { token: user.token });
  const answer = await socket.next((message) => message.from === "@agent");
  assert.equal(answer.content, `Tool said: Error: There is no workspace "${secret}" that you can use.`);
  assert.ok(!JSON.stringify(socket.messages).includes("Fredville"));
  socket.close();
  await socket.closed;
});

Deno.test("skills: a chart block, a saved file served only to its owner, scraping through the URL guard, SearXNG search", async () => {
  await using llm = startFakeOpenAi();
  const searx = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const query = new URL(request.url).searchParams.get("q");
    return Response.json({
      results: [{ title: `About ${query}`, url: "https://example.org/a", content: "A snippet." }],
    });
  });
  await using app = await configuredTestApp({
    llm: llm.baseURL,
    settings: { AgentSearXNGApiUrl: `http://127.0.0.1:${searx.addr.port}` },
  });
  const base = app.listen();
  const admin = await multiUserInstance(app);
  const slug = await workspace(app, "Tools", admin.token);
  const other = await addUser(app, admin, "carl", "admin");
  const saved = await app.json("/api/agents/settings", {
    ...bearer(admin.token),
    json: {
      skills: { "create-chart": true, "save-file-to-browser": true, "web-browsing": true },
      searchProvider: "searxng-engine",
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));

  const run = async (call: { name: string; arguments: Record<string, unknown> }) => {
    llm.setReply(callThenAnswer(call));
    const { uuid } = await invoke(app, slug, `@agent use ${call.name}`, admin.token);
    const socket = openAgentSocket(base, uuid, { token: admin.token });
    const answer = await socket.next((message) => message.from === "@agent");
    socket.close();
    await socket.closed;
    return String(answer.content);
  };

  const chart = await run({
    name: "create-chart",
    arguments: { type: "bar", title: "Sales", data: [{ label: "Q1", value: 3 }, { label: "Q2", value: 5 }] },
  });
  assert.match(chart, /```chart\n\{"type":"bar","title":"Sales","data":\[\{"label":"Q1","value":3\}/);

  const file = await run({ name: "save-file", arguments: { filename: "../notes.md", content: "# Notes" } });
  const link = /\[Download notes\.md\]\((\/api\/agent-files\/[0-9a-f-]+)\)/.exec(file)?.[1];
  assert.ok(link, file);
  const mine = await app.request(link, bearer(admin.token));
  assert.equal(mine.status, 200);
  assert.equal(await mine.text(), "# Notes");
  assert.match(mine.headers.get("content-disposition") ?? "", /attachment; filename="notes\.md"/);
  const theirs = await app.json(link, bearer(other.token));
  assert.equal(theirs.status, 404);

  const scraped = await run({
    name: "scrape-web-page",
    arguments: { url: `http://127.0.0.1:${searx.addr.port}/` },
  });
  assert.match(scraped, /^Tool said: Error: 127\.0\.0\.1 points to a loopback address/);

  const found = await run({ name: "web-search", arguments: { query: "herons" } });
  assert.match(found, /^Tool said: \[1\] About herons\nhttps:\/\/example\.org\/a\nA snippet\./);
  await searx.shutdown();
});
