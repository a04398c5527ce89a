import assert from "node:assert/strict";
import { embedChats, embedConfigs, workspaceChats, workspaces } from "../../db/schema.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import type { ChatExportType } from "../../shared/api/chat_export.ts";
import { exportChats } from "../chat_export/service.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

const AT = new Date("2024-01-16T15:07:00.000Z");

/** Two workspaces, each with an embed, three embed chats, and a workspace chat that must stay out. */
async function seed(app: TestApp) {
  const db = app.deps.db;
  const [atlas] = await db.insert(workspaces).values({
    name: "Atlas",
    slug: "atlas",
    openAiPrompt: "Be brief.",
  })
    .returning();
  const [birch] = await db.insert(workspaces).values({ name: "Birch", slug: "birch" }).returning();
  const [shop] = await db.insert(embedConfigs).values({ uuid: crypto.randomUUID(), workspaceId: birch.id })
    .returning();
  const [help] = await db.insert(embedConfigs).values({ uuid: crypto.randomUUID(), workspaceId: atlas.id })
    .returning();
  const answer = (text: string, sources: { text: string }[] = []) =>
    JSON.stringify({ text, sources, type: "query", metrics: {} });
  await db.insert(embedChats).values([
    { embedId: shop.id, sessionId: "s-1", prompt: "Open on Sunday?", response: answer("No."), createdAt: AT },
    {
      embedId: help.id,
      sessionId: "s-2",
      prompt: 'Say "hi"\nplease',
      response: answer("Hi.", [{ text: "Greetings." }]),
      createdAt: AT,
    },
    { embedId: shop.id, sessionId: "s-1", prompt: "Delivery?", response: answer("Yes."), createdAt: AT },
  ]);
  await db.insert(workspaceChats).values({
    workspaceId: atlas.id,
    prompt: "not an embed chat",
    response: answer("Hidden."),
  });
}

async function exported(app: TestApp, type: ChatExportType): Promise<string> {
  return await new Response(exportChats(app.deps, type, { chatType: "embed" }).body).text();
}

Deno.test("embed chat export: csv and json with the reference's embed columns (no user, no rating)", async () => {
  await using app = await createTestApp();
  await seed(app);
  const date = `"${AT.toString()}"`;
  assert.equal(
    await exported(app, "csv"),
    [
      "id,workspace,prompt,response,sent_at",
      `"1","Birch","Open on Sunday?","No.",${date}`,
      `"2","Atlas","Say ""hi"" please","Hi.",${date}`,
      `"3","Birch","Delivery?","Yes.",${date}`,
    ].join("\n"),
  );
  const json = JSON.parse(await exported(app, "json"));
  assert.deepEqual(json[0], {
    id: 1,
    prompt: "Open on Sunday?",
    response: "No.",
    sent_at: AT.toISOString(),
    attachments: [],
    workspace: "Birch",
  });
  assert.equal(json.length, 3);
  const file = exportChats(app.deps, "csv", { chatType: "embed" });
  assert.equal(file.filename, "embed-chats.csv");
  await file.body.cancel();
});

Deno.test("embed chat export: jsonl groups by the embed's workspace; jsonAlpaca cites the sources", async () => {
  await using app = await createTestApp();
  await seed(app);
  const lines = (await exported(app, "jsonl")).split("\n").map((line) => JSON.parse(line));
  assert.equal(lines.length, 2);
  assert.deepEqual(lines[0].messages.map((message: { role: string }) => message.role), [
    "system",
    "user",
    "assistant",
  ]);
  assert.equal(lines[0].messages[0].content[0].text, "Be brief.");
  assert.equal(lines[1].messages[0].content[0].text, DEFAULT_SYSTEM_PROMPT);
  assert.equal(lines[1].messages.length, 5);
  const alpaca = JSON.parse(await exported(app, "jsonAlpaca"));
  assert.equal(alpaca.length, 3);
  assert.equal(alpaca[1].input, 'Say "hi"\nplease');
  assert.match(alpaca[1].instruction, /\[CONTEXT 0\]:\nGreetings\./);
});

Deno.test("embed chat export: no embed chats gives an empty list, an empty file or the csv header", async () => {
  await using app = await createTestApp();
  assert.equal(await exported(app, "json"), "[]");
  assert.equal(await exported(app, "jsonAlpaca"), "[]");
  assert.equal(await exported(app, "jsonl"), "");
  assert.equal(await exported(app, "csv"), "id,workspace,prompt,response,sent_at");
});
