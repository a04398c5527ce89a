import assert from "node:assert/strict";
import { documents, workspaceDocuments } from "../../db/schema.ts";
import { UploadAnswer } from "../../shared/api/documents.ts";
import { UpdateEmbeddingsAnswer } from "../../shared/api/workspaces.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";

function upload(app: TestApp, slug: string, name: string, content: string | Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.append("file", new File([content], name));
  return app.json(`/api/workspace/${slug}/upload`, { method: "POST", body: form });
}

async function newWorkspace(app: TestApp, name = "Docs") {
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    json: { name },
  });
  return created.body.workspace;
}

Deno.test("POST /api/workspace/:slug/upload stores the document JSON of docs/api-compat.md#document-json under a generated name", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app);
  const answer = await upload(
    app,
    workspace.slug,
    "../../etc/My Notes.md",
    "# Title\r\n\r\nSome words here.",
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const parsed = UploadAnswer.parse(answer.body);
  assert.equal(parsed.success, true);
  assert.equal(parsed.error, null);
  const document = parsed.documents![0];
  assert.match(document.location, /^custom-documents\/My-Notes\.md-[0-9a-f-]{36}\.json$/);
  assert.equal(document.title, "My Notes.md", "only the base name is kept");
  assert.equal(document.docSource, "a text file uploaded by the user.");

  const file = JSON.parse(await Deno.readTextFile(`${app.storageDir}/documents/${document.location}`));
  assert.deepEqual(Object.keys(file), [
    "id",
    "url",
    "title",
    "docAuthor",
    "description",
    "docSource",
    "chunkSource",
    "published",
    "wordCount",
    "pageContent",
    "token_count_estimate",
  ]);
  assert.equal(file.pageContent, "# Title\n\nSome words here.");
  assert.equal(file.docAuthor, "Unknown");
  assert.equal(file.wordCount, 4);
  assert.ok(file.token_count_estimate > 0);
  const uploads = [...Deno.readDirSync(`${app.storageDir}/uploads`)].map((entry) => entry.name);
  assert.equal(uploads.length, 1);
  assert.match(uploads[0], /^[0-9a-f-]{36}\.md$/, "the original is kept under a generated name");
  assert.equal((await app.deps.db.select().from(documents)).length, 1);
});

Deno.test("upload refuses unsupported, binary, empty and missing files with clear messages", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app);
  const image = await upload(
    app,
    workspace.slug,
    "photo.png",
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
  );
  assert.equal(image.status, 400);
  assert.equal(
    image.body.error,
    "File extension .png not supported for parsing and cannot be assumed as text file type.",
  );
  const binary = await upload(app, workspace.slug, "data.txt", new Uint8Array([72, 0, 1, 2]));
  assert.equal(binary.status, 400);
  assert.match(String(binary.body.error), /not a text file/);
  const empty = await upload(app, workspace.slug, "empty.txt", "  \n ");
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error, "No text content found in empty.txt.");
  const none = await app.json(`/api/workspace/${workspace.slug}/upload`, {
    method: "POST",
    body: new FormData(),
  });
  assert.equal(none.status, 400);
  assert.match(String(none.body.error), /No file was sent/);
  const unknown = await upload(app, "nope", "a.txt", "hello");
  assert.equal(unknown.status, 404);
  assert.equal((await app.deps.db.select().from(documents)).length, 0, "nothing was stored");
});

Deno.test("upload beyond MAX_UPLOAD_MB is refused with 413", async () => {
  await using app = await createTestApp({ env: { MAX_UPLOAD_MB: "1" } });
  const workspace = await newWorkspace(app);
  const big = await upload(app, workspace.slug, "big.txt", "a".repeat(1024 * 1024 + 100 * 1024));
  assert.equal(big.status, 413);
  assert.equal(big.body.error, "The file is too large: the limit is 1 MB.");
});

Deno.test("update-embeddings adds and deletes documents, and reports failures per document", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app);
  const text = Array.from(
    { length: 60 },
    (_, index) => `Sentence number ${index} talks about topic ${index % 7}.`,
  )
    .join(" ");
  const uploaded = UploadAnswer.parse((await upload(app, workspace.slug, "long.txt", text)).body);
  const location = uploaded.documents![0].location;

  const added = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
    json: { adds: [location, "custom-documents/missing.json", "../etc/passwd"] },
  });
  assert.equal(added.status, 200);
  const answer = UpdateEmbeddingsAnswer.parse(added.body);
  assert.equal(answer.workspace!.documents.length, 1);
  assert.equal(answer.workspace!.documents[0].docpath, location);
  assert.match(answer.message!, /^2 documents failed to add\.\n\n/);
  assert.match(answer.message!, /Cannot find the document "custom-documents\/missing.json"/);
  assert.match(answer.message!, /is not a document location/);

  const namespace = workspaceNamespace(workspace.id, app.deps.providers.embedder());
  const chunks = await app.deps.vectors.count(namespace);
  assert.ok(
    chunks >= 2,
    `a ${text.length}-character text gives several 1000-character chunks, got ${chunks}`,
  );

  const again = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
    json: { adds: [location] },
  });
  assert.equal(again.body.message, null);
  assert.equal(await app.deps.vectors.count(namespace), chunks, "adding twice does not duplicate");

  const removed = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
    json: { deletes: [location] },
  });
  assert.equal(UpdateEmbeddingsAnswer.parse(removed.body).workspace!.documents.length, 0);
  assert.equal(await app.deps.vectors.count(namespace), 0);
  assert.equal((await app.deps.db.select().from(workspaceDocuments)).length, 0);

  const bad = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, { json: { adds: "x" } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.workspace, null);
  const unknown = await app.json(`/api/workspace/nope/update-embeddings`, { json: { adds: [] } });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { workspace: null, message: "Workspace does not exist." });
});

Deno.test("update-embeddings uses a generic-openai embedder and reports its failure", async () => {
  await using fake = startFakeOpenAi({ apiKey: "embed-key" });
  await using app = await createTestApp();
  await app.json("/api/system/update-env", {
    json: {
      EmbeddingEngine: "generic-openai",
      EmbeddingBasePath: fake.baseURL,
      EmbeddingModelPref: "fake-embedder",
      GenericOpenAiEmbeddingApiKey: "embed-key",
    },
  });
  const workspace = await newWorkspace(app);
  const uploaded = UploadAnswer.parse((await upload(app, workspace.slug, "a.txt", "Apples are red.")).body);
  const added = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
    json: { adds: [uploaded.documents![0].location] },
  });
  assert.equal(added.body.message, null);
  assert.equal(fake.embeddingRequests[0].model, "fake-embedder");
  assert.match(fake.embeddingRequests[0].input[0], /^<document_metadata>\nsourceDocument: a.txt\n/);

  await app.json("/api/system/update-env", { json: { GenericOpenAiEmbeddingApiKey: "wrong" } });
  const second = UploadAnswer.parse((await upload(app, workspace.slug, "b.txt", "Pears are green.")).body);
  const failed = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
    json: { adds: [second.documents![0].location] },
  });
  assert.match(String(failed.body.message), /1 documents failed to add\.[\s\S]*Incorrect API key provided/);
});

Deno.test("upload-and-embed uploads and embeds in one call", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app);
  const form = new FormData();
  form.append("file", new File(["Bananas are yellow."], "fruit.txt"));
  const answer = await app.json<{ success: boolean; document: { location: string } }>(
    `/api/workspace/${workspace.slug}/upload-and-embed`,
    { method: "POST", body: form },
  );
  assert.equal(answer.body.success, true);
  const detail = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
    `/api/workspace/${workspace.slug}`,
  );
  assert.equal(detail.body.workspace.documents[0].docpath, answer.body.document.location);
});

Deno.test("hostile names: an uploaded file keeps its name exactly as sent, never as a path", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app);
  for (
    const name of [
      "<img src=x onerror=alert(1)>.txt",
      "a=b; c=d.txt",
      "naïve résumé.txt",
      "../../etc/passwd.txt",
    ]
  ) {
    const answer = UploadAnswer.parse((await upload(app, workspace.slug, name, "hostile names")).body);
    assert.equal(answer.documents?.[0].title, name.replace(/^.*\//, ""), name);
    assert.doesNotMatch(answer.documents?.[0].location ?? "", /\.\.|<|=/, "stored under a generated name");
  }
});

Deno.test("POST /api/workspace/:slug/upload-and-embed announces its vectors to the store and takes the announcement back at its first write, or when the file is refused", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app);
  const vectors = app.deps.vectors;
  const storeExpect = vectors.expectAdds!.bind(vectors);
  const announced: { namespace: string; calls: number }[] = [];
  vectors.expectAdds = (namespace) => {
    const entry = { namespace, calls: 0 };
    announced.push(entry);
    const done = storeExpect(namespace);
    return () => {
      entry.calls++;
      done();
    };
  };
  const uploadAndEmbed = (name: string, content: string) => {
    const form = new FormData();
    form.append("file", new File([content], name));
    return app.json<{ success: boolean }>(`/api/workspace/${workspace.slug}/upload-and-embed`, {
      method: "POST",
      body: form,
    });
  };
  const namespace = workspaceNamespace(workspace.id, app.deps.providers.embedder());

  const embedded = await uploadAndEmbed("notes.md", "# Notes\n\nSome words to embed.");
  assert.equal(embedded.body.success, true, JSON.stringify(embedded.body));
  // Taken back once its vectors were written (ingest.ts), and again, for nothing, as the request ended.
  assert.deepEqual(announced, [{ namespace, calls: 2 }]);

  const refused = await uploadAndEmbed("empty.md", "");
  assert.equal(refused.status, 400);
  assert.deepEqual(announced[1], { namespace, calls: 1 });
});
