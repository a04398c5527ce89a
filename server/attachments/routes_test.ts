import assert from "node:assert/strict";
import { documents, workspaceParsedFiles } from "../../db/schema.ts";
import {
  EmbedParsedFileAnswer,
  MAX_PARSED_FILES,
  ParseAnswer,
  ParsedFilesAnswer,
} from "../../shared/api/attachments.ts";
import { configuredTestApp, createTestApp, readFrames, type TestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../testing/accounts.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import type { EmbedderDeps } from "../providers/embedders/registry.ts";
import { startFakeEmbedders } from "../providers/embedders/testing/fake_embedders.ts";

const quick: EmbedderDeps = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };
const FREEDONIA = "Freedonia exports cheese and violins. The capital of Freedonia is Fredville.";

const auth = (session?: Session) => (session ? bearer(session.token) : {});

async function newWorkspace(
  app: TestApp,
  name = "Atlas",
  session?: Session,
): Promise<{ slug: string; id: number }> {
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    ...auth(session),
    json: { name },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.workspace;
}

async function newThread(app: TestApp, slug: string, session?: Session): Promise<string> {
  const created = await app.json<{ thread: { slug: string } }>(`/api/workspace/${slug}/thread/new`, {
    ...auth(session),
    method: "POST",
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.thread.slug;
}

function parse(
  app: TestApp,
  slug: string,
  file: File | null,
  options: { threadSlug?: string; session?: Session } = {},
) {
  const form = new FormData();
  if (file) form.append("file", file);
  if (options.threadSlug !== undefined) form.append("threadSlug", options.threadSlug);
  return app.json<Record<string, unknown>>(`/api/workspace/${slug}/parse`, {
    ...auth(options.session),
    method: "POST",
    body: form,
  });
}

async function attach(
  app: TestApp,
  slug: string,
  name: string,
  text: string,
  options: { threadSlug?: string; session?: Session } = {},
): Promise<number> {
  const answer = await parse(app, slug, new File([text], name), options);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return ParseAnswer.parse(answer.body).files[0].id;
}

function listed(app: TestApp, slug: string, threadSlug?: string, session?: Session) {
  const query = threadSlug === undefined ? "" : `?threadSlug=${encodeURIComponent(threadSlug)}`;
  return app.json<Record<string, unknown>>(`/api/workspace/${slug}/parsed-files${query}`, auth(session));
}

function remove(app: TestApp, slug: string, body: unknown, session?: Session) {
  return app.json<Record<string, unknown>>(`/api/workspace/${slug}/delete-parsed-files`, {
    ...auth(session),
    method: "DELETE",
    json: body,
  });
}

function embed(app: TestApp, slug: string, fileId: number | string, session?: Session) {
  return app.json<Record<string, unknown>>(`/api/workspace/${slug}/embed-parsed-file/${fileId}`, {
    ...auth(session),
    method: "POST",
  });
}

async function storedFiles(app: TestApp): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${app.storageDir}/direct-uploads`)) names.push(entry.name);
  return names.sort();
}

Deno.test("parse keeps a chat file's text for the thread and parsed-files lists it with the context window", async () => {
  await using app = await configuredTestApp();
  const { slug, id: workspaceId } = await newWorkspace(app);
  const answer = await parse(app, slug, new File([FREEDONIA], "freedonia.txt"), { threadSlug: "null" });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const body = ParseAnswer.strict().parse(answer.body);
  assert.equal(body.success, true);
  assert.equal(body.error, null);
  assert.equal(body.files.length, 1);
  const [file] = body.files;
  assert.equal(file.workspaceId, workspaceId);
  assert.equal(file.userId, null);
  assert.equal(file.threadId, null);
  assert.ok(file.tokenCountEstimate > 0);
  assert.match(file.filename, /^freedonia\.txt-[0-9a-f-]{36}\.json$/);
  assert.ok(!Number.isNaN(Date.parse(file.createdAt)));
  const metadata = JSON.parse(file.metadata);
  assert.equal(metadata.title, "freedonia.txt");
  assert.equal(metadata.location, `direct-uploads/${file.filename}`);
  assert.equal(metadata.isDirectUpload, true);
  assert.equal(metadata.pageContent, undefined, "the row's metadata never holds the text");

  // The text is kept on disk under the generated name; nothing entered the library.
  const kept = JSON.parse(await Deno.readTextFile(`${app.storageDir}/direct-uploads/${file.filename}`));
  assert.equal(kept.pageContent, FREEDONIA);
  assert.equal(await app.deps.db.$count(documents), 0);

  const list = await listed(app, slug);
  assert.equal(list.status, 200);
  assert.deepEqual(ParsedFilesAnswer.strict().parse(list.body), {
    files: [{
      id: file.id,
      title: "freedonia.txt",
      location: `direct-uploads/${file.filename}`,
      token_count_estimate: file.tokenCountEstimate,
    }],
    contextWindow: 4096,
    currentContextTokenCount: file.tokenCountEstimate,
  });
});

Deno.test("parsed-files answers an empty list with a null context window on an instance without a model", async () => {
  await using app = await createTestApp();
  const { slug } = await newWorkspace(app);
  const list = await listed(app, slug);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, { files: [], contextWindow: null, currentContextTokenCount: 0 });
});

Deno.test("files attached in a thread stay in that thread; an unknown thread or workspace is a 404 that keeps the list fields", async () => {
  await using app = await createTestApp();
  const { slug } = await newWorkspace(app);
  const thread = await newThread(app, slug);
  const inThread = await attach(app, slug, "thread.txt", "Only in the thread.", { threadSlug: thread });
  const inDefault = await attach(app, slug, "default.txt", "Only in the default thread.");

  const ids = async (threadSlug?: string) =>
    ParsedFilesAnswer.parse((await listed(app, slug, threadSlug)).body).files.map((file) => file.id);
  assert.deepEqual(await ids(thread), [inThread]);
  assert.deepEqual(await ids(), [inDefault]);
  assert.deepEqual(await ids("null"), [inDefault]);

  const unknownThread = await listed(app, slug, "no-such-thread");
  assert.equal(unknownThread.status, 404);
  assert.deepEqual(unknownThread.body, {
    success: false,
    error: "Workspace thread does not exist.",
    files: [],
    contextWindow: null,
    currentContextTokenCount: 0,
  });
  const parseUnknownThread = await parse(app, slug, new File(["x"], "x.txt"), {
    threadSlug: "no-such-thread",
  });
  assert.equal(parseUnknownThread.status, 404);
  assert.deepEqual(parseUnknownThread.body, { success: false, error: "Workspace thread does not exist." });

  const unknownWorkspace = await listed(app, "no-such-workspace");
  assert.equal(unknownWorkspace.status, 404);
  assert.deepEqual(unknownWorkspace.body, {
    success: false,
    error: "Workspace does not exist.",
    files: [],
    contextWindow: null,
    currentContextTokenCount: 0,
  });

  // A thread of another workspace is not this workspace's thread.
  const other = await newWorkspace(app, "Other");
  const otherThread = await newThread(app, other.slug);
  const crossed = await parse(app, slug, new File(["x"], "x.txt"), { threadSlug: otherThread });
  assert.equal(crossed.status, 404);
  assert.equal(crossed.body.error, "Workspace thread does not exist.");
});

Deno.test("parse refuses a missing file, an unreadable file, a file over the upload limit and a full thread with a sentence", async () => {
  await using app = await createTestApp({ env: { MAX_UPLOAD_MB: "1" } });
  const { slug, id: workspaceId } = await newWorkspace(app);

  const missing = await parse(app, slug, null);
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, {
    success: false,
    error: 'No file was sent: use a multipart form with the field "file".',
  });

  const binary = new Uint8Array(4096).map((_, index) => (index * 7919) % 256);
  const unreadable = await parse(app, slug, new File([binary], "blob.bin"));
  assert.equal(unreadable.status, 400);
  assert.equal(unreadable.body.success, false);
  assert.deepEqual(unreadable.body, {
    success: false,
    error: "File extension .bin not supported for parsing and cannot be assumed as text file type.",
  });

  const large = await parse(app, slug, new File(["a".repeat(1024 * 1024 + 1)], "large.txt"));
  assert.equal(large.status, 413);
  assert.deepEqual(large.body, { success: false, error: "The file is too large: the limit is 1 MB." });

  await app.deps.db.insert(workspaceParsedFiles).values(
    Array.from({ length: MAX_PARSED_FILES }, (_, index) => ({
      filename: `filler-${index}.json`,
      workspaceId,
      tokenCountEstimate: 1,
    })),
  );
  const full = await parse(app, slug, new File(["one more"], "more.txt"));
  assert.equal(full.status, 409);
  assert.deepEqual(full.body, {
    success: false,
    error:
      `At most ${MAX_PARSED_FILES} files can be attached to one thread: remove some, or embed them into the workspace.`,
  });
  // The limit is per thread: another thread still takes files.
  const thread = await newThread(app, slug);
  assert.equal(
    (await parse(app, slug, new File(["one more"], "more.txt"), { threadSlug: thread })).status,
    200,
  );
  assert.equal((await storedFiles(app)).length, 1, "refused files leave nothing on disk");
});

Deno.test("delete-parsed-files removes the listed files and their texts, and refuses an empty or malformed list", async () => {
  await using app = await createTestApp();
  const { slug } = await newWorkspace(app);
  const first = await attach(app, slug, "first.txt", "First file.");
  const second = await attach(app, slug, "second.txt", "Second file.");
  assert.equal((await storedFiles(app)).length, 2);

  const empty = await remove(app, slug, { fileIds: [] });
  assert.equal(empty.status, 400);
  assert.deepEqual(empty.body, {
    success: false,
    error: "fileIds: fileIds is empty: name the parsed files to remove.",
  });
  const missing = await remove(app, slug, {});
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, {
    success: false,
    error: "fileIds: fileIds must be a list of parsed file ids.",
  });
  const words = await remove(app, slug, { fileIds: ["first"] });
  assert.equal(words.status, 400);
  assert.match(String(words.body.error), /^fileIds\.0: /);
  const unknown = await remove(app, slug, { fileIds: [999] });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, {
    success: false,
    error: "None of these parsed files is yours in this workspace.",
  });

  const removed = await remove(app, slug, { fileIds: [String(first)] });
  assert.equal(removed.status, 200);
  assert.deepEqual(removed.body, { success: true, error: null, removed: 1 });
  const left = ParsedFilesAnswer.parse((await listed(app, slug)).body);
  assert.deepEqual(left.files.map((file) => file.id), [second]);
  assert.deepEqual((await storedFiles(app)).map((name) => name.split("-")[0]), ["second.txt"]);

  // Another workspace's slug does not reach this workspace's files.
  const other = await newWorkspace(app, "Other");
  const crossed = await remove(app, other.slug, { fileIds: [second] });
  assert.equal(crossed.status, 404);
  assert.equal(ParsedFilesAnswer.parse((await listed(app, slug)).body).files.length, 1);
});

Deno.test("multi-user: members attach and list their own files only; others' files cannot be seen, removed or embedded", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mara", "manager");
  const member = await addUser(app, admin, "dora", "default");
  const outsider = await addUser(app, admin, "otto", "default");
  const { slug, id } = await newWorkspace(app, "Team", admin);
  const members = await app.json(`/api/admin/workspaces/${id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [member.user.id] },
  });
  assert.equal(members.status, 200, JSON.stringify(members.body));

  const memberFile = await parse(app, slug, new File(["Dora's notes."], "dora.txt"), { session: member });
  assert.equal(memberFile.status, 200, JSON.stringify(memberFile.body));
  const memberRow = ParseAnswer.parse(memberFile.body).files[0];
  assert.equal(memberRow.userId, member.user.id);
  const managerFile = await attach(app, slug, "mara.txt", "Mara's notes.", { session: manager });

  const titles = async (session: Session) =>
    ParsedFilesAnswer.parse((await listed(app, slug, undefined, session)).body).files.map((file) =>
      file.title
    );
  assert.deepEqual(await titles(member), ["dora.txt"]);
  assert.deepEqual(await titles(manager), ["mara.txt"]);
  assert.deepEqual(await titles(admin), [], "an admin does not see another user's attachments either");

  // A default user outside the workspace does not find it.
  const outside = await parse(app, slug, new File(["x"], "x.txt"), { session: outsider });
  assert.equal(outside.status, 404);
  assert.deepEqual(outside.body, { success: false, error: "Workspace does not exist." });
  assert.equal((await listed(app, slug, undefined, outsider)).status, 404);
  assert.equal((await remove(app, slug, { fileIds: [memberRow.id] }, outsider)).status, 404);

  // Nobody removes or embeds another user's file, whatever their role.
  const foreignDelete = await remove(app, slug, { fileIds: [memberRow.id] }, admin);
  assert.equal(foreignDelete.status, 404);
  assert.equal(foreignDelete.body.error, "None of these parsed files is yours in this workspace.");
  const foreignEmbed = await embed(app, slug, memberRow.id, manager);
  assert.equal(foreignEmbed.status, 404);
  assert.deepEqual(foreignEmbed.body, { success: false, error: "File not found", document: null });
  assert.deepEqual(await titles(member), ["dora.txt"]);

  // Embedding into the workspace is for admins and managers.
  const refused = await embed(app, slug, memberRow.id, member);
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.body, {
    success: false,
    error: "You do not have permission to do that.",
    document: null,
  });
  const embedded = await embed(app, slug, managerFile, manager);
  assert.equal(embedded.status, 200, JSON.stringify(embedded.body));

  // The member removes their own file; a thread of another user is not theirs to attach to.
  const managerThread = await newThread(app, slug, manager);
  const intoForeignThread = await parse(app, slug, new File(["x"], "x.txt"), {
    session: member,
    threadSlug: managerThread,
  });
  assert.equal(intoForeignThread.status, 404);
  const own = await remove(app, slug, { fileIds: [memberRow.id] }, member);
  assert.equal(own.status, 200);
  assert.deepEqual(await titles(member), []);
});

Deno.test("embed-parsed-file turns the attachment into a library document embedded in the workspace", async () => {
  await using app = await createTestApp();
  const { slug, id: workspaceId } = await newWorkspace(app);
  const fileId = await attach(app, slug, "freedonia.txt", FREEDONIA);

  const answer = await embed(app, slug, fileId);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const { document } = EmbedParsedFileAnswer.strict().parse(answer.body);
  assert.ok(document);
  assert.equal(document.workspaceId, workspaceId);
  assert.match(document.docpath, /^custom-documents\/freedonia\.txt-[0-9a-f-]{36}\.json$/);

  const stored = await app.deps.documents.read(document.docpath);
  assert.equal(stored.pageContent, FREEDONIA);
  assert.equal(stored.title, "freedonia.txt");
  const workspace = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
    `/api/workspace/${slug}`,
  );
  assert.deepEqual(workspace.body.workspace.documents.map((doc) => doc.docpath), [document.docpath]);
  // It is no longer attached, and its parsed text is gone.
  assert.deepEqual(ParsedFilesAnswer.parse((await listed(app, slug)).body).files, []);
  assert.deepEqual(await storedFiles(app), []);

  const again = await embed(app, slug, fileId);
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, { success: false, error: "File not found", document: null });
  const badId = await embed(app, slug, "1;drop");
  assert.equal(badId.status, 400);
  assert.deepEqual(badId.body, {
    success: false,
    error: '"1;drop" is not a parsed file id.',
    document: null,
  });
});

Deno.test("embed-parsed-file that the embedder refuses keeps the file attached and leaves no library document", async () => {
  await using embedders = startFakeEmbedders({ dimensions: 16 });
  await using app = await createTestApp({ providerDeps: quick });
  const saved = await app.json("/api/system/update-env", {
    json: {
      EmbeddingEngine: "generic-openai",
      EmbeddingBasePath: `${embedders.url}/v1`,
      EmbeddingModelPref: "broken-model",
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  embedders.rejectModel("broken-model");
  const { slug } = await newWorkspace(app);
  const fileId = await attach(app, slug, "freedonia.txt", FREEDONIA);

  const answer = await embed(app, slug, fileId);
  assert.equal(answer.status, 502);
  assert.equal(answer.body.success, false);
  assert.equal(answer.body.document, null);
  assert.match(String(answer.body.error), /model/i);
  assert.ok(!String(answer.body.error).includes("custom-documents/"), "the message is the embedder's own");
  assert.equal(await app.deps.db.$count(documents), 0);
  assert.deepEqual(ParsedFilesAnswer.parse((await listed(app, slug)).body).files.map((file) => file.id), [
    fileId,
  ]);
});

Deno.test("an attached file's text goes into the context of its thread's messages and is cited", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const { slug } = await newWorkspace(app);
  const thread = await newThread(app, slug);
  await attach(app, slug, "freedonia.txt", FREEDONIA, { threadSlug: thread });

  const ask = async (path: string) => {
    const response = await app.request(path, {
      method: "POST",
      body: JSON.stringify({ message: "Capital?" }),
    });
    assert.equal(response.status, 200);
    const frames = await readFrames(response);
    return { system: llm.chatRequests.at(-1)!.messages[0].content, frames };
  };
  const inThread = await ask(`/api/workspace/${slug}/thread/${thread}/stream-chat`);
  assert.ok(inThread.system.includes(`[CONTEXT 0]:\n${FREEDONIA}\n[END CONTEXT 0]`), inThread.system);
  const closing = inThread.frames.find((frame) => frame.close === true && Array.isArray(frame.sources));
  const sources = closing?.sources as { title: string; text: string }[];
  assert.deepEqual(sources.map((source) => source.title), ["freedonia.txt"]);
  assert.equal(sources[0].text, `${FREEDONIA}...continued on in source document...`);

  const elsewhere = await ask(`/api/workspace/${slug}/stream-chat`);
  assert.ok(!elsewhere.system.includes("Freedonia"), "the default thread does not see the thread's file");
});

Deno.test("attached files join the context only while the context window has room", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({
    llm: llm.baseURL,
    settings: { GenericOpenAiTokenLimit: "400" },
  });
  const { slug } = await newWorkspace(app);
  const big = Array.from({ length: 120 }, (_, index) => `Fact ${index} about Freedonia.`).join(" ");
  await attach(app, slug, "big.txt", big);
  await attach(app, slug, "small.txt", "The national bird is the grey heron.");
  const list = ParsedFilesAnswer.parse((await listed(app, slug)).body);
  assert.ok(
    list.files[0].token_count_estimate >= 400,
    `big.txt is ${list.files[0].token_count_estimate} tokens`,
  );

  const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message: "Bird?" }),
  });
  const frames = await readFrames(response);
  const closing = frames.find((frame) => frame.close === true && Array.isArray(frame.sources));
  assert.deepEqual(
    (closing?.sources as { title: string }[]).map((source) => source.title),
    ["big.txt"],
    "the file after the one that filled the window is left out",
  );
  const system = llm.chatRequests.at(-1)!.messages[0].content;
  assert.ok(!system.includes("grey heron"));
});

Deno.test("parsed texts whose rows went with a deleted thread are removed at the next start", async () => {
  const storageDir = await Deno.makeTempDir({ prefix: "lectern-test-" });
  try {
    {
      await using app = await createTestApp({ storageDir });
      const { slug } = await newWorkspace(app);
      const thread = await newThread(app, slug);
      await attach(app, slug, "kept.txt", "Kept.");
      await attach(app, slug, "gone.txt", "Gone with the thread.", { threadSlug: thread });
      const deleted = await app.request(`/api/workspace/${slug}/thread/${thread}`, { method: "DELETE" });
      assert.equal(deleted.status, 200);
      assert.equal((await storedFiles(app)).length, 2);
    }
    await using app = await createTestApp({ storageDir });
    assert.deepEqual((await storedFiles(app)).map((name) => name.split("-")[0]), ["kept.txt"]);
    const rows = await app.deps.db.select().from(workspaceParsedFiles);
    assert.deepEqual(rows.map((row) => row.filename.split("-")[0]), ["kept.txt"]);
  } finally {
    await Deno.remove(storageDir, { recursive: true });
  }
});
