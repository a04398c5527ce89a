import assert from "node:assert/strict";
import { workspaceChats, workspaceThreads } from "../../db/schema.ts";
import { THREAD_EXPORT_TYPES } from "../../shared/api/chat_export.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

const answer = (text: string) =>
  JSON.stringify({ text, sources: [], type: "chat", attachments: [], metrics: {} });

/** The text of every page of a PDF (read with the parser the document pipeline uses). */
async function pdfTextOf(bytes: Uint8Array): Promise<string> {
  const { getDocumentProxy, extractText } = await import("unpdf");
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

async function exportAs(app: TestApp, type: string, json: unknown, session?: Session) {
  const response = await app.request(`/api/export-chat/${type}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(session ? bearer(session.token).headers : {}) },
    body: JSON.stringify(json),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: new TextDecoder().decode(bytes) };
}

async function world() {
  const app = await createTestApp();
  const admin = await multiUserInstance(app);
  const dora = await addUser(app, admin, "dora", "default");
  const eve = await addUser(app, admin, "eve", "default");
  const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Harbour" },
  });
  const workspace = made.body.workspace;
  const members = await app.json(`/api/admin/workspaces/${workspace.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [admin.user.id, dora.user.id, eve.user.id] },
  });
  assert.equal(members.status, 200, JSON.stringify(members.body));
  const [doraThread, eveThread, emptyThread] = await app.deps.db.insert(workspaceThreads).values([
    { name: "Tides", slug: "dora-tides", workspaceId: workspace.id, userId: dora.user.id },
    { name: "Eve's", slug: "eve-thread", workspaceId: workspace.id, userId: eve.user.id },
    { name: "Empty", slug: "dora-empty", workspaceId: workspace.id, userId: dora.user.id },
  ]).returning();
  await app.deps.db.insert(workspaceChats).values([
    {
      workspaceId: workspace.id,
      threadId: doraThread.id,
      userId: dora.user.id,
      prompt: "When is high tide?",
      response: answer("<think>check the table</think>High tide is at 7:42 — “twice” a day."),
    },
    {
      workspaceId: workspace.id,
      threadId: eveThread.id,
      userId: eve.user.id,
      prompt: "SECRET-EVE question",
      response: answer("SECRET-EVE answer"),
    },
    {
      workspaceId: workspace.id,
      threadId: null,
      userId: dora.user.id,
      prompt: "Default thread <b>question</b>",
      response: answer("Default answer."),
    },
  ]);
  return { app, admin, dora, eve, workspace, doraThread, emptyThread };
}

Deno.test("export-chat: the owner exports a thread in every type; the thought chain stays out of the answer", async () => {
  const w = await world();
  await using _app = w.app;
  const body = { workspaceSlug: w.workspace.slug, threadSlug: w.doraThread.slug };
  for (const type of THREAD_EXPORT_TYPES) {
    const file = await exportAs(w.app, type, body, w.dora);
    assert.equal(file.status, 200, `${type}: ${file.text.slice(0, 200)}`);
    assert.match(
      file.headers.get("content-disposition") ?? "",
      /^attachment; filename="Lectern Export - [\d-]+\.\w+"$/,
    );
    const text = type === "pdf" ? await pdfTextOf(file.bytes) : file.text;
    for (const expected of ["When is high tide?", "High tide is at 7:42", "Harbour", "Tides"]) {
      assert.ok(text.includes(expected), `${type} holds ${expected}: ${text.slice(0, 400)}`);
    }
    assert.ok(!text.includes("SECRET-EVE"), `${type}: nobody else's chats`);
    assert.ok(!text.includes("Default answer"), `${type}: only this thread`);
    if (type !== "json" && type !== "html") assert.ok(!text.includes("check the table"), type);
  }
  const json = JSON.parse((await exportAs(w.app, "json", body, w.dora)).text);
  assert.equal(json.workspace, "Harbour");
  assert.equal(json.thread, "Tides");
  assert.deepEqual(json.messages.map((message: { role: string }) => message.role), ["user", "assistant"]);
  assert.equal(json.messages[1].reasoning, "check the table");
  assert.equal(json.messages[1].content, "High tide is at 7:42 — “twice” a day.");

  const pdf = await exportAs(w.app, "pdf", body, w.dora);
  assert.equal(pdf.headers.get("content-type"), "application/pdf");
  assert.equal(pdf.text.slice(0, 5), "%PDF-");
  assert.ok(pdf.text.trimEnd().endsWith("%%EOF"));
  const pdfText = await pdfTextOf(pdf.bytes);
  assert.ok(pdfText.includes("Exported from Lectern"), pdfText);
  assert.ok(pdfText.includes("“twice”"), "typographic quotes survive the standard fonts");

  // The default thread, and HTML escapes what the chat holds.
  const html = await exportAs(w.app, "html", { workspaceSlug: w.workspace.slug }, w.dora);
  assert.equal(html.status, 200);
  assert.equal(html.headers.get("content-type"), "text/html; charset=utf-8");
  assert.ok(html.text.includes("Default thread &lt;b&gt;question&lt;/b&gt;"));
  assert.ok(!html.text.includes("<b>question"));
  assert.ok(!/<script/i.test(html.text));
});

Deno.test("export-chat: another user's thread and a workspace not shared are 404; a bad type or body is a 400 sentence", async () => {
  const w = await world();
  await using _app = w.app;
  const eveThread = await exportAs(w.app, "pdf", {
    workspaceSlug: w.workspace.slug,
    threadSlug: "eve-thread",
  }, w.dora);
  assert.equal(eveThread.status, 404);
  assert.deepEqual(JSON.parse(eveThread.text), { success: false, error: "Workspace thread does not exist." });

  const outsider = await addUser(w.app, w.admin, "olga", "default");
  const hidden = await exportAs(w.app, "markdown", { workspaceSlug: w.workspace.slug }, outsider);
  assert.equal(hidden.status, 404);
  assert.equal(JSON.parse(hidden.text).error, "Workspace does not exist.");
  const unknown = await exportAs(w.app, "markdown", { workspaceSlug: "nowhere" }, w.dora);
  assert.equal(unknown.status, 404);

  const badType = await exportAs(w.app, "docx", { workspaceSlug: w.workspace.slug }, w.dora);
  assert.equal(badType.status, 400);
  assert.equal(
    JSON.parse(badType.text).error,
    'The export type "docx" is not one of pdf, markdown, plaintext, json, html.',
  );
  const noSlug = await exportAs(w.app, "pdf", {}, w.dora);
  assert.equal(noSlug.status, 400);
  assert.match(JSON.parse(noSlug.text).error, /^workspaceSlug must name a workspace\.$/);
  const anonymous = await exportAs(w.app, "pdf", { workspaceSlug: w.workspace.slug });
  assert.equal(anonymous.status, 401);
});

Deno.test("export-chat: an empty thread gives a valid file of each type that says it has no messages", async () => {
  const w = await world();
  await using _app = w.app;
  const body = { workspaceSlug: w.workspace.slug, threadSlug: w.emptyThread.slug };
  for (const type of THREAD_EXPORT_TYPES) {
    const file = await exportAs(w.app, type, body, w.dora);
    assert.equal(file.status, 200, type);
    const text = type === "pdf" ? await pdfTextOf(file.bytes) : file.text;
    if (type === "json") assert.deepEqual(JSON.parse(text).messages, []);
    else assert.ok(text.includes("This chat has no messages yet."), `${type}: ${text.slice(0, 300)}`);
  }
});

Deno.test("export-chat: the PDF carries the instance's custom app name and logo", async () => {
  await using app = await createTestApp();
  const made = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Atlas" },
  });
  const saved = await app.json("/api/admin/system-preferences", { json: { custom_app_name: "Bay Library" } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const plain = await exportAs(app, "pdf", { workspaceSlug: made.body.workspace.slug });
  assert.equal(plain.status, 200);
  assert.match(plain.headers.get("content-disposition") ?? "", /filename="Bay Library Export - /);
  const text = await pdfTextOf(plain.bytes);
  assert.ok(text.includes("Bay Library"), text);
  assert.ok(!plain.text.includes("/Subtype /Image"), "no logo set: no image");

  // A 1×1 PNG as the logo goes into the PDF as an image.
  const png = Uint8Array.from(
    atob(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    ),
    (character) => character.charCodeAt(0),
  );
  const form = new FormData();
  form.append("logo", new File([png], "logo.png", { type: "image/png" }));
  const uploaded = await app.request("/api/system/upload-logo", { method: "POST", body: form });
  assert.equal(uploaded.status, 200, await uploaded.text());
  const branded = await exportAs(app, "pdf", { workspaceSlug: made.body.workspace.slug });
  assert.equal(branded.status, 200);
  assert.ok(branded.text.includes("/Subtype /Image"), "the logo is embedded");
});
