import assert from "node:assert/strict";
import { join } from "node:path";
import { count } from "drizzle-orm";
import { documents, workspaceDocuments } from "../../db/schema.ts";
import { ACCEPTED_DOCUMENT_TYPES } from "../../shared/api/documents.ts";
import { METADATA_SCHEMA } from "../../shared/api/v1_documents.ts";
import { ProviderError } from "../errors.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

type Answer = {
  success?: boolean;
  error?: string | null;
  message?: string | null;
  documents?: Record<string, unknown>[];
  [key: string]: unknown;
};

interface Setup {
  app: TestApp;
  /** A full-access key. */
  key: string;
  call(
    path: string,
    init?: RequestInit & { json?: unknown },
    key?: string,
  ): Promise<{ status: number; body: Answer }>;
  workspace(name: string): Promise<{ id: number; slug: string }>;
}

async function setup(options: Parameters<typeof createTestApp>[0] = {}): Promise<Setup & AsyncDisposable> {
  const app = await createTestApp(options);
  const { key } = await makeApiKey(app);
  return {
    app,
    key,
    call: (path, init = {}, as = key) => app.json<Answer>(`/api/v1${path}`, withKey(as, init)),
    async workspace(name) {
      const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
        json: { name },
      });
      return made.body.workspace;
    },
    [Symbol.asyncDispose]: () => app.close(),
  };
}

function fileForm(name: string, content: string | Uint8Array, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append("file", new File([content as BlobPart], name));
  return form;
}

async function filesUnder(directory: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(directory)) {
      const path = join(directory, entry.name);
      if (entry.isDirectory) found.push(...await filesUnder(path));
      else found.push(path);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found;
}

/** Everything an upload could leave behind: index rows, workspace rows, document files and originals. */
async function storedState(app: TestApp) {
  const [{ rows }] = await app.deps.db.select({ rows: count() }).from(documents);
  const [{ embedded }] = await app.deps.db.select({ embedded: count() }).from(workspaceDocuments);
  return {
    rows,
    embedded,
    files: await filesUnder(app.deps.paths.documents),
    uploads: await filesUnder(app.deps.paths.uploads),
  };
}

const NOTHING = { rows: 0, embedded: 0, files: [], uploads: [] };

async function workspaceDocs(app: TestApp): Promise<[number, string][]> {
  const rows = await app.deps.db.select().from(workspaceDocuments);
  return rows.map((row) => [row.workspaceId, row.docpath] as [number, string]).sort();
}

Deno.test("v1 upload: the file is parsed and stored with its metadata, and the listings find it", async () => {
  await using api = await setup();
  const form = fileForm("herons.txt", "Herons fish in rivers.", {
    metadata: JSON.stringify({ title: "Herons", docAuthor: "Ann" }),
  });
  const answer = await api.call("/document/upload", { method: "POST", body: form });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.success, true);
  assert.equal(answer.body.error, null);
  const [document] = answer.body.documents!;
  assert.match(String(document.location), /^custom-documents\/herons\.txt-[0-9a-f-]{36}\.json$/);
  assert.equal(document.title, "Herons");
  assert.equal(document.docAuthor, "Ann");
  assert.equal(document.wordCount, 4);
  const stored = JSON.parse(
    await Deno.readTextFile(join(api.app.deps.paths.documents, String(document.location))),
  );
  assert.equal(stored.pageContent, "Herons fish in rivers.");
  assert.equal((await storedState(api.app)).embedded, 0, "no addToWorkspaces: the library only");

  const tree = await api.call("/documents");
  assert.equal(tree.status, 200);
  const localFiles = tree.body.localFiles as {
    name: string;
    items: { name: string; items: { location: string }[] }[];
  };
  assert.equal(localFiles.name, "documents");
  const custom = localFiles.items.find((folder) => folder.name === "custom-documents")!;
  assert.deepEqual(custom.items.map((file) => file.location), [document.location]);

  const folder = await api.call("/documents/folder/custom-documents");
  assert.equal(folder.status, 200);
  assert.deepEqual(folder.body.documents!.map((file) => file.location), [document.location]);
  assert.equal(folder.body.totalCount, 1);
  assert.equal(folder.body.error, null);

  const name = String(document.location).split("/")[1];
  for (const asked of [name, name.replace(/\.json$/, "")]) {
    const found = await api.call(`/document/${encodeURIComponent(asked)}`);
    assert.equal(found.status, 200, asked);
    const one = found.body.document as Record<string, unknown>;
    assert.equal(one.name, name);
    assert.equal(one.type, "file");
    assert.equal(one.title, "Herons");
    assert.equal("pageContent" in one, false, "never the text");
  }
  const missing = await api.call("/document/nothing-here.json");
  assert.equal(missing.status, 404);
  assert.match(String(missing.body.error), /^Cannot find a document named "nothing-here\.json"\.$/);
});

Deno.test("v1 upload with addToWorkspaces embeds the new document into each named workspace", async () => {
  await using api = await setup();
  const atlas = await api.workspace("Atlas");
  const birch = await api.workspace("Birch");
  const answer = await api.call("/document/upload", {
    method: "POST",
    body: fileForm("tides.md", "# Tides\n\nThe tide rises twice a day.", {
      addToWorkspaces: " Atlas, birch ",
    }),
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const location = String(answer.body.documents![0].location);
  assert.deepEqual(await workspaceDocs(api.app), [[atlas.id, location], [birch.id, location]].sort());
});

Deno.test("v1 upload into a folder stores it there; a folder name that is a path is refused", async () => {
  await using api = await setup();
  const answer = await api.call("/document/upload/field-notes", {
    method: "POST",
    body: fileForm("a.txt", "Alpha."),
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.match(String(answer.body.documents![0].location), /^field-notes\/a\.txt-/);
  const folder = await api.call("/documents/folder/field-notes");
  assert.equal(folder.body.totalCount, 1);

  const before = await storedState(api.app);
  const bad = await api.call(`/document/upload/${encodeURIComponent("bad name")}`, {
    method: "POST",
    body: fileForm("b.txt", "Beta."),
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.success, false);
  assert.match(String(bad.body.error), /is not a folder name/);
  assert.deepEqual(await storedState(api.app), before);
});

Deno.test("a v1 upload that fails stores nothing: no file, an unreadable or too large one, an unknown workspace", async () => {
  await using api = await setup({ env: { MAX_UPLOAD_MB: "1" } });
  await api.workspace("Atlas");
  const cases: [string, FormData | string, number, RegExp][] = [
    [
      "no file",
      (() => {
        const form = new FormData();
        form.append("addToWorkspaces", "atlas");
        return form;
      })(),
      400,
      /^No file was sent/,
    ],
    ["not a form", "{}", 400, /not a valid multipart form/],
    ["binary", fileForm("blob.bin", new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3])), 400, /\.bin/],
    [
      "too large",
      fileForm("big.txt", "a".repeat(1024 * 1024 + 10)),
      413,
      /^The file is too large: the limit is 1 MB\.$/,
    ],
    [
      "unknown workspace",
      fileForm("a.txt", "Alpha.", { addToWorkspaces: "atlas,nowhere" }),
      404,
      /^The workspace "nowhere" does not exist, so nothing was stored\.$/,
    ],
    ["bad metadata", fileForm("a.txt", "Alpha.", { metadata: "{title" }), 400, /^metadata is not valid JSON/],
  ];
  for (const [name, body, status, error] of cases) {
    const answer = await api.call("/document/upload", { method: "POST", body });
    assert.equal(answer.status, status, `${name}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.success, false, name);
    assert.match(String(answer.body.error), error, name);
    assert.deepEqual(await storedState(api.app), NOTHING, name);
  }
});

Deno.test("a v1 upload whose embedding fails is removed again: 502, and nothing is left in the library", async () => {
  await using api = await setup({
    providers: {
      embedder: () => {
        throw new ProviderError("The embedder is down.");
      },
    },
  });
  await api.workspace("Atlas");
  const answer = await api.call("/document/raw-text", {
    json: { textContent: "Some words.", metadata: { title: "Words" }, addToWorkspaces: "atlas" },
  });
  assert.equal(answer.status, 502, JSON.stringify(answer.body));
  assert.equal(answer.body.success, false);
  assert.match(
    String(answer.body.error),
    /^The document could not be embedded into the workspace "atlas" \(The embedder is down\), so nothing was stored\.$/,
  );
  assert.deepEqual(await storedState(api.app), NOTHING);
});

Deno.test("v1 uploads and workspace-limited keys: allowed only into workspaces of their scope, named in addToWorkspaces", async () => {
  await using api = await setup();
  const open = await api.workspace("Open");
  await api.workspace("Other");
  const documentsKey = (await makeApiKey(api.app, {
    scope: "workspaces",
    workspaceIds: [open.id],
    permissions: ["documents"],
  })).key;
  const chatKey =
    (await makeApiKey(api.app, { scope: "workspaces", workspaceIds: [open.id], permissions: ["chat"] }))
      .key;
  const readKey = (await makeApiKey(api.app, { scope: "read" })).key;

  const upload = (key: string, fields: Record<string, string>) =>
    api.call("/document/upload", { method: "POST", body: fileForm("a.txt", "Alpha.", fields) }, key);
  const refusals: [string, string, Record<string, string>, RegExp][] = [
    [
      "no workspace named",
      documentsKey,
      {},
      /^This API key is limited to its workspaces, so it can only add documents that go into them: name them in addToWorkspaces\.$/,
    ],
    [
      "a workspace out of scope",
      documentsKey,
      { addToWorkspaces: "open,other" },
      /cannot use the workspace "other"\./,
    ],
    [
      "an unknown workspace",
      documentsKey,
      { addToWorkspaces: "nowhere" },
      /cannot use the workspace "nowhere"\./,
    ],
    [
      "no documents permission",
      chatKey,
      { addToWorkspaces: "open" },
      /^This API key may only chat in its workspaces, so it cannot manage documents\.$/,
    ],
    [
      "read-only",
      readKey,
      { addToWorkspaces: "open" },
      /^This API key is read-only, so it cannot make changes\.$/,
    ],
  ];
  for (const [name, key, fields, refusal] of refusals) {
    const answer = await upload(key, fields);
    assert.equal(answer.status, 403, name);
    assert.match(String(answer.body.error), refusal, name);
    assert.deepEqual(await storedState(api.app), NOTHING, name);
  }
  const rawText = await api.call("/document/raw-text", {
    json: { textContent: "Words.", metadata: { title: "T" } },
  }, documentsKey);
  assert.equal(rawText.status, 403, "raw text without a workspace");
  assert.deepEqual(await storedState(api.app), NOTHING);

  const allowed = await upload(documentsKey, { addToWorkspaces: "open" });
  assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  assert.deepEqual(await workspaceDocs(api.app), [[open.id, String(allowed.body.documents![0].location)]]);
  // The library is instance-wide: a workspace-limited key cannot list it or change folders.
  for (
    const [path, init] of [["/documents", {}], ["/document/create-folder", { json: { name: "x" } }]] as const
  ) {
    const answer = await api.call(path, init, documentsKey);
    assert.equal(answer.status, 403, path);
  }
});

Deno.test("v1 raw-text: stored with the reference's fields; the title and the text are required", async () => {
  await using api = await setup({ env: { MAX_UPLOAD_MB: "1" } });
  const published = Date.UTC(2024, 0, 16, 15, 7);
  const answer = await api.call("/document/raw-text", {
    json: {
      textContent: "The moon pulls the sea.",
      metadata: JSON.stringify({
        title: "Moon Notes.md",
        url: "https://Example.com/Moon",
        docSource: "a notebook",
        published,
        keyOne: "kept out",
      }),
    },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const [document] = answer.body.documents!;
  assert.match(String(document.location), /^custom-documents\/raw-moon-notes-[0-9a-f-]{36}\.json$/);
  assert.deepEqual(
    {
      title: document.title,
      url: document.url,
      docAuthor: document.docAuthor,
      description: document.description,
      docSource: document.docSource,
      chunkSource: document.chunkSource,
      published: document.published,
      wordCount: document.wordCount,
    },
    {
      title: "moon-notes.txt",
      url: "web://https://example.com/moon.website",
      docAuthor: "no author specified",
      description: "no description found",
      docSource: "a notebook",
      chunkSource: "moon-notes.txt",
      published: new Date(published).toLocaleString("en-US"),
      wordCount: 5,
    },
  );

  const refusals: [unknown, number, string][] = [
    [
      { textContent: "x" },
      400,
      "You are missing required metadata key:value pairs in your request. Required metadata key:values are 'title'.",
    ],
    [
      { textContent: "x", metadata: { title: "  " } },
      400,
      "You are missing required metadata key:value pairs in your request. Required metadata key:values are 'title'.",
    ],
    [{ textContent: "", metadata: { title: "T" } }, 400, "The 'textContent' key cannot have an empty value."],
    [{ metadata: { title: "T" } }, 400, "The 'textContent' key cannot have an empty value."],
    [{ textContent: "x", metadata: 5 }, 400, "metadata must be a JSON object with at least a title."],
    [{ textContent: "x", metadata: { title: "T", docAuthor: 7 } }, 400, "metadata.docAuthor must be text."],
    [
      { textContent: "x", metadata: { title: "T" }, addToWorkspaces: ["a"] },
      400,
      "addToWorkspaces must be a string of comma-separated workspace slugs.",
    ],
    [
      { textContent: "a".repeat(1024 * 1024 + 1), metadata: { title: "T" } },
      413,
      "The text is too large: the limit is 1 MB.",
    ],
  ];
  const before = await storedState(api.app);
  for (const [json, status, error] of refusals) {
    const refused = await api.call("/document/raw-text", { json });
    assert.equal(refused.status, status, error);
    assert.deepEqual(refused.body, { success: false, error }, error);
  }
  assert.deepEqual(await storedState(api.app), before);
});

/** A loopback web site standing for the internet, and a resolver and fetch that take a public name to it. */
function site() {
  const seen: Headers[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push(request.headers);
    return new Response(
      "<html><head><title>Tides</title></head><body><article><h1>Tides</h1><p>The tide rises twice a day, pulled by the moon, and falls between.</p></article></body></html>",
      { headers: { "content-type": "text/html" } },
    );
  });
  return {
    seen,
    port: () => server.addr.port,
    network: {
      resolve: (hostname: string) =>
        Promise.resolve(hostname === "docs.example.test" ? ["93.184.215.14"] : []),
      fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.hostname !== "docs.example.test") {
          return Promise.reject(new Error(`The guard let ${url.href} through to the network`));
        }
        return fetch(`http://127.0.0.1:${server.addr.port}${url.pathname}`, init);
      }) as typeof fetch,
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("v1 upload-link: fetched through the address guard with scraperHeaders, stored with the metadata given", async () => {
  await using web = site();
  await using api = await setup();
  api.app.deps.linkFetch = web.network;
  const atlas = await api.workspace("Atlas");
  const answer = await api.call("/document/upload-link", {
    json: {
      link: "https://docs.example.test/tides",
      scraperHeaders: { Authorization: "Bearer page-token", "X-Custom": "1" },
      metadata: { title: "Tide notes", docSource: "the harbour site" },
      addToWorkspaces: "atlas",
    },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const [document] = answer.body.documents!;
  assert.equal(document.title, "Tide notes");
  assert.equal(document.docSource, "the harbour site");
  assert.equal(document.chunkSource, "link://https://docs.example.test/tides");
  assert.equal(web.seen[0].get("authorization"), "Bearer page-token");
  assert.equal(web.seen[0].get("x-custom"), "1");
  assert.deepEqual(await workspaceDocs(api.app), [[atlas.id, String(document.location)]]);

  const before = await storedState(api.app);
  const refusals: [unknown, number, RegExp][] = [
    [{ link: `http://127.0.0.1:${web.port()}/tides` }, 400, /^127\.0\.0\.1 points to a loopback address/],
    [{ link: "http://169.254.169.254/latest" }, 400, /link-local|metadata/],
    [{}, 400, /^link: must be the URL of a page or a file\.$/],
    [{ link: "ftp://docs.example.test/x" }, 400, /^Not a valid URL\.$/],
    [
      { link: "https://docs.example.test/x", scraperHeaders: ["a"] },
      400,
      /^scraperHeaders: must be an object/,
    ],
    [
      { link: "https://docs.example.test/x", scraperHeaders: { A: "1\n2" } },
      400,
      /^scraperHeaders\.A: must not hold/,
    ],
    [
      { link: "https://docs.example.test/x", scraperHeaders: { "Bad Name": "1" } },
      400,
      /^scraperHeaders: must name HTTP headers\.$/,
    ],
    [{ link: "https://docs.example.test/x", metadata: { title: 5 } }, 400, /^metadata\.title: /],
  ];
  for (const [json, status, error] of refusals) {
    const refused = await api.call("/document/upload-link", { json });
    assert.equal(refused.status, status, JSON.stringify(json));
    assert.equal(refused.body.success, false);
    assert.match(String(refused.body.error), error, `${JSON.stringify(json)}: ${refused.body.error}`);
  }
  assert.equal(web.seen.length, 1, "no refused link reached the site");
  assert.deepEqual(await storedState(api.app), before);
});

Deno.test("v1 accepted-file-types and metadata-schema answer any key, even one limited to chatting", async () => {
  await using api = await setup();
  const open = await api.workspace("Open");
  const chatKey =
    (await makeApiKey(api.app, { scope: "workspaces", workspaceIds: [open.id], permissions: ["chat"] }))
      .key;
  const types = await api.call("/document/accepted-file-types", {}, chatKey);
  assert.equal(types.status, 200);
  assert.deepEqual(types.body, { types: ACCEPTED_DOCUMENT_TYPES });
  const schema = await api.call("/document/metadata-schema", {}, chatKey);
  assert.equal(schema.status, 200);
  assert.deepEqual(schema.body, { schema: METADATA_SCHEMA });
  assert.equal(METADATA_SCHEMA.title, "string");
});

Deno.test("v1 folders: create, move documents into them, list and remove them, with the reference's answers", async () => {
  await using api = await setup();
  const atlas = await api.workspace("Atlas");
  const uploaded = await api.call("/document/upload", {
    method: "POST",
    body: fileForm("a.txt", "Alpha beta.", { addToWorkspaces: "atlas" }),
  });
  const from = String(uploaded.body.documents![0].location);

  const created = await api.call("/document/create-folder", { json: { name: "Field notes" } });
  assert.equal(created.status, 200);
  assert.deepEqual(created.body, { success: true, message: null, folder: "Field-notes" });
  const again = await api.call("/document/create-folder", { json: { name: "Field-notes" } });
  assert.equal(again.status, 409);
  assert.deepEqual(again.body, { success: false, message: 'A folder named "Field-notes" already exists.' });
  const unnamed = await api.call("/document/create-folder", { json: {} });
  assert.equal(unnamed.status, 400);
  assert.deepEqual(unnamed.body, { success: false, message: "name: name must be a folder name." });
  const path = await api.call("/document/create-folder", { json: { name: "../etc" } });
  assert.equal(path.status, 400);
  assert.equal(path.body.success, false);

  const to = `Field-notes/${from.split("/")[1]}`;
  const moved = await api.call("/document/move-files", { json: { files: [{ from, to }] } });
  assert.equal(moved.status, 200);
  assert.deepEqual(moved.body, { success: true, message: null });
  assert.deepEqual(await workspaceDocs(api.app), [[atlas.id, to]], "the workspace follows the move");
  const missing = await api.call("/document/move-files", {
    json: { files: [{ from, to: `custom-documents/x.json` }] },
  });
  assert.equal(missing.body.success, false);
  assert.match(String(missing.body.message), /^1 of 1 documents could not be moved\./);
  const noFiles = await api.call("/document/move-files", { json: {} });
  assert.equal(noFiles.status, 400);
  assert.deepEqual(noFiles.body, { success: false, message: "files: files must be a list of {from, to}." });

  const page = await api.call("/documents/folder/Field-notes?limit=1");
  assert.deepEqual(page.body.documents!.map((file) => file.location), [to]);
  const unknown = await api.call("/documents/folder/nowhere");
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, {
    folder: "nowhere",
    documents: [],
    totalCount: 0,
    hasMore: false,
    error: 'The folder "nowhere" does not exist.',
  });
  const badLimit = await api.call("/documents/folder/Field-notes?limit=0");
  assert.equal(badLimit.status, 400);
  assert.match(String(badLimit.body.error), /^limit must be a whole number/);

  const keep = await api.call("/document/remove-folder", {
    method: "DELETE",
    json: { name: "custom-documents" },
  });
  assert.equal(keep.status, 400);
  assert.equal(keep.body.success, false);
  const removed = await api.call("/document/remove-folder", {
    method: "DELETE",
    json: { name: "Field-notes" },
  });
  assert.equal(removed.status, 200);
  assert.deepEqual(removed.body, { success: true, message: "Folder removed successfully" });
  assert.deepEqual(await storedState(api.app), NOTHING, "its document left every workspace and the disk");
  const gone = await api.call("/document/remove-folder", { method: "DELETE", json: { name: "Field-notes" } });
  assert.equal(gone.status, 404);

  const readKey = (await makeApiKey(api.app, { scope: "read" })).key;
  const refused = await api.call("/document/create-folder", { json: { name: "ro" } }, readKey);
  assert.equal(refused.status, 403);
  assert.match(String(refused.body.error), /read-only/);
  assert.equal((await api.call("/documents", {}, readKey)).status, 200, "read-only keys read the library");
});
