import assert from "node:assert/strict";
import { users, workspaceChats, workspaces, workspaceThreads } from "../../db/schema.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import { CHAT_EXPORT_TYPES, type ChatExportType } from "../../shared/api/chat_export.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { exportChats } from "./service.ts";

const AT = new Date("2024-01-16T15:07:00.000Z");
const IMAGE = "data:image/png;base64,iVBORw0KGgo=";

/**
 * Two workspaces (the first with its own prompt), a user, and chats of every kind: a user's rated chat with an
 * image and sources, a developer API chat, a chat of the open instance (no user), a thread's chat, one left
 * out of the history, and one whose answer holds quotes and line breaks.
 */
async function seed(app: TestApp) {
  const db = app.deps.db;
  const [atlas] = await db.insert(workspaces).values({
    name: "Atlas",
    slug: "atlas",
    openAiPrompt: "Be brief.",
  })
    .returning();
  const [birch] = await db.insert(workspaces).values({ name: "Birch", slug: "birch" }).returning();
  const [dora] = await db.insert(users).values({ username: "dora", password: "x" }).returning();
  const [thread] = await db.insert(workspaceThreads).values({ name: "T", slug: "t-1", workspaceId: birch.id })
    .returning();
  const answer = (text: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ text, sources: [], type: "chat", attachments: [], metrics: {}, ...extra });
  await db.insert(workspaceChats).values([
    {
      workspaceId: atlas.id,
      prompt: "What is a heron?",
      response: answer("A bird.", {
        sources: [{ text: "Herons are birds." }, { text: "They fish." }],
        attachments: [{ name: "h.png", mime: "image/png", dataUrl: IMAGE }],
      }),
      userId: dora.id,
      feedbackScore: true,
      createdAt: AT,
    },
    { workspaceId: birch.id, prompt: "api?", response: answer("Yes."), apiSessionId: "s-1", createdAt: AT },
    { workspaceId: atlas.id, prompt: "open", response: answer("Open."), feedbackScore: false, createdAt: AT },
    {
      workspaceId: birch.id,
      prompt: "in a thread",
      response: answer("Thread."),
      threadId: thread.id,
      createdAt: AT,
    },
    { workspaceId: atlas.id, prompt: "/reset", response: answer("Hidden."), include: false, createdAt: AT },
    {
      workspaceId: atlas.id,
      prompt: 'Say "hi"\nplease',
      response: answer('He said "hi"\nthen left.'),
      createdAt: AT,
    },
  ]);
  return { atlas, birch };
}

async function exported(app: TestApp, type: ChatExportType, options = {}): Promise<string> {
  return await new Response(exportChats(app.deps, type, options).body).text();
}

Deno.test("csv export: the reference's header and cells (quoted, quotes doubled, line breaks as spaces)", async () => {
  await using app = await createTestApp();
  await seed(app);
  const text = await exported(app, "csv");
  const lines = text.split("\n");
  assert.equal(lines[0], "id,workspace,prompt,response,sent_at,username,rating");
  assert.equal(lines.length, 7, "a header and one line per chat, no trailing line break");
  const date = String(AT);
  assert.equal(lines[1], `"1","Atlas","What is a heron?","A bird.","${date}","dora","GOOD"`);
  assert.equal(lines[2], `"2","Birch","api?","Yes.","${date}","API","--"`);
  assert.equal(lines[3], `"3","Atlas","open","Open.","${date}","unknown user","BAD"`);
  assert.equal(
    lines[6],
    `"6","Atlas","Say ""hi"" please","He said ""hi"" then left.","${date}","unknown user","--"`,
  );
});

Deno.test("json export: JSON.stringify(chats, null, 4) with the reference's keys, images as data URLs", async () => {
  await using app = await createTestApp();
  await seed(app);
  const text = await exported(app, "json");
  const chats = JSON.parse(text);
  assert.equal(text, JSON.stringify(chats, null, 4), "pretty-printed with four spaces");
  assert.equal(chats.length, 6, "every chat: API chats, thread chats and chats left out of the history too");
  assert.deepEqual(chats[0], {
    id: 1,
    prompt: "What is a heron?",
    response: "A bird.",
    sent_at: AT.toISOString(),
    attachments: [{ type: "image", image: IMAGE }],
    workspace: "Atlas",
    username: "dora",
    rating: "GOOD",
  });
  assert.deepEqual(Object.keys(chats[1]), [
    "id",
    "prompt",
    "response",
    "sent_at",
    "attachments",
    "workspace",
    "username",
    "rating",
  ]);
  assert.equal(chats[1].username, "API");
});

Deno.test("jsonl export: one line per workspace, a system message then each user and assistant turn", async () => {
  await using app = await createTestApp();
  await seed(app);
  const text = await exported(app, "jsonl");
  const lines = text.split("\n");
  assert.equal(lines.length, 2);
  const [atlas, birch] = lines.map((line) => JSON.parse(line));
  assert.equal(lines[0], JSON.stringify(atlas), "compact JSON, as JSON.stringify writes it");
  assert.deepEqual(atlas.messages.slice(0, 3), [
    { role: "system", content: [{ type: "text", text: "Be brief." }] },
    {
      role: "user",
      content: [{ type: "text", text: "What is a heron?" }, { type: "image", image: IMAGE }],
    },
    { role: "assistant", content: [{ type: "text", text: "A bird." }] },
  ]);
  assert.equal(atlas.messages.length, 1 + 2 * 4);
  assert.deepEqual(birch.messages[0], {
    role: "system",
    content: [{ type: "text", text: DEFAULT_SYSTEM_PROMPT }],
  }, "a workspace without its own prompt: the instance's default");
  assert.deepEqual(
    birch.messages.slice(1).map((message: { content: { text: string }[] }) => message.content[0].text),
    [
      "api?",
      "Yes.",
      "in a thread",
      "Thread.",
    ],
  );
});

Deno.test("jsonAlpaca export: instruction (prompt and the cited context), input and output", async () => {
  await using app = await createTestApp();
  await seed(app);
  const text = await exported(app, "jsonAlpaca");
  const rows = JSON.parse(text);
  assert.equal(text, JSON.stringify(rows, null, 4));
  assert.deepEqual(rows[0], {
    instruction:
      "Be brief.\nContext:\n[CONTEXT 0]:\nHerons are birds.\n[END CONTEXT 0]\n\n[CONTEXT 1]:\nThey fish.\n[END CONTEXT 1]\n\n",
    input: "What is a heron?",
    output: "A bird.",
  });
  assert.deepEqual(rows[1], { instruction: DEFAULT_SYSTEM_PROMPT, input: "api?", output: "Yes." });
});

Deno.test("exports of an instance without chats: an empty list, an empty file, or the csv header", async () => {
  await using app = await createTestApp();
  assert.equal(await exported(app, "json"), "[]");
  assert.equal(await exported(app, "jsonAlpaca"), "[]");
  assert.equal(await exported(app, "jsonl"), "");
  assert.equal(await exported(app, "csv"), "id,workspace,prompt,response,sent_at,username,rating");
});

Deno.test("every format is the same whatever the page size, across many pages", async () => {
  await using app = await createTestApp();
  const { atlas, birch } = await seed(app);
  const rows = Array.from({ length: 1200 }, (_, index) => ({
    workspaceId: index % 3 === 0 ? birch.id : atlas.id,
    prompt: `question ${index}`,
    response: JSON.stringify({ text: `answer ${index}`, sources: [], attachments: [] }),
    createdAt: AT,
  }));
  for (let start = 0; start < rows.length; start += 400) {
    await app.deps.db.insert(workspaceChats).values(rows.slice(start, start + 400));
  }
  for (const type of CHAT_EXPORT_TYPES) {
    const whole = await exported(app, type, { pageSize: 5000 });
    for (const pageSize of [13, 100]) {
      assert.equal(
        await exported(app, type, { pageSize, chunkChars: 10 }),
        whole,
        `${type}, pages of ${pageSize}`,
      );
    }
  }
  const csv = await exported(app, "csv", { pageSize: 100 });
  assert.equal(csv.split("\n").length, 1 + 6 + 1200);
  const jsonl = (await exported(app, "jsonl", { pageSize: 100 })).split("\n").map((line) => JSON.parse(line));
  assert.equal(jsonl[0].messages.length + jsonl[1].messages.length, 2 + 2 * (6 + 1200));
});

Deno.test("the export is read from the database while it is sent: a chat saved meanwhile is in the rest", async () => {
  await using app = await createTestApp();
  const { atlas } = await seed(app);
  const reader = exportChats(app.deps, "csv", { pageSize: 2, chunkChars: 1 }).body.getReader();
  const decoder = new TextDecoder();
  const first = await reader.read();
  assert.equal(decoder.decode(first.value), "id,workspace,prompt,response,sent_at,username,rating");
  await app.deps.db.insert(workspaceChats).values({
    workspaceId: atlas.id,
    prompt: "late",
    response: JSON.stringify({ text: "Late." }),
    createdAt: AT,
  });
  let rest = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    rest += decoder.decode(chunk.value, { stream: true });
  }
  assert.match(rest, /"7","Atlas","late","Late\."/);
});
