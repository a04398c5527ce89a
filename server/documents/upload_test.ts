import assert from "node:assert/strict";
import { documents } from "../../db/schema.ts";
import { ACCEPTED_DOCUMENT_TYPES, UploadAndEmbedAnswer, UploadAnswer } from "../../shared/api/documents.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { FormFile } from "../http/form.ts";
import { NATIVE_FINGERPRINT, nativeEmbedder } from "../providers/embedders/native.ts";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import { addDocuments } from "./ingest.ts";
import { VectorCache } from "./vector_cache.ts";
import { receiveUploadToEmbed } from "./upload.ts";
import {
  buildEpub,
  buildMbox,
  buildOdp,
  buildOdt,
  buildPptx,
  buildXlsx,
  buildXlsxBomb,
} from "./parsers/test_files.ts";

const FIXTURES = new URL("../../tests/fixtures/documents/", import.meta.url);
const fixture = (name: string) => Deno.readFile(new URL(name, FIXTURES));

function upload(
  app: TestApp,
  slug: string,
  name: string,
  content: Uint8Array,
  fields: Record<string, string> = {},
  path = "upload",
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new File([content as Uint8Array<ArrayBuffer>], name));
  return app.json(`/api/workspace/${slug}/${path}`, { method: "POST", body: form });
}

async function newWorkspace(app: TestApp): Promise<string> {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Files" },
  });
  return created.body.workspace.slug;
}

async function stored(app: TestApp, location: string) {
  return JSON.parse(await Deno.readTextFile(`${app.storageDir}/documents/${location}`));
}

Deno.test("accepted-document-types lists every format the parsers read, audio and video, and no image type", async () => {
  await using app = await createTestApp();
  const answer = await app.json<{ types: Record<string, string[]> }>("/api/system/accepted-document-types");
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body.types, ACCEPTED_DOCUMENT_TYPES);
  const extensions = Object.values(answer.body.types).flat();
  for (
    const extension of [
      ".txt",
      ".md",
      ".org",
      ".adoc",
      ".rst",
      ".html",
      ".csv",
      ".json",
      ".docx",
      ".pptx",
      ".xlsx",
    ]
      .concat([".odt", ".odp", ".pdf", ".epub", ".mbox"])
      // Audio and video become their transcript (server/speech/transcribe.ts).
      .concat([".wav", ".mp3", ".ogg", ".m4a", ".webm", ".mp4"])
  ) assert.ok(extensions.includes(extension), extension);
  assert.ok(!Object.keys(answer.body.types).some((mime) => /^image\//.test(mime)));
});

Deno.test("upload reads every supported type and stores it with the per-type fields of docs/api-compat.md#document-json", async () => {
  await using app = await createTestApp();
  const slug = await newWorkspace(app);
  const files: [string, Uint8Array, { docSource: string; docAuthor?: string; text: RegExp }][] = [
    ["eip-2488.md", await fixture("eip-2488.md"), {
      docSource: "a text file uploaded by the user.",
      text: /^---\neip: 2488/,
    }],
    ["modest_proposal.txt", await fixture("modest_proposal.txt"), {
      docSource: "a text file uploaded by the user.",
      docAuthor: "Unknown",
      text: /^The Project Gutenberg eBook of A Modest Proposal/,
    }],
    ["handler.html", await fixture("handler.html"), {
      docSource: "an html file uploaded by the user.",
      text: /^# Apache's Handler Use/,
    }],
    ["airline-safety.csv", await fixture("airline-safety.csv"), {
      docSource: "a csv file uploaded by the user.",
      text: /^Columns: airline/,
    }],
    ["config.json", new TextEncoder().encode('{"port":3001}'), {
      docSource: "a json file uploaded by the user.",
      text: /"port": 3001/,
    }],
    ["tables.docx", await fixture("tables.docx"), {
      docSource: "a docx file uploaded by the user.",
      docAuthor: "Michael Williamson",
      text: /^Above\n\nTop left/,
    }],
    ["pdflatex-4-pages.pdf", await fixture("pdflatex-4-pages.pdf"), {
      docSource: "a pdf file uploaded by the user.",
      docAuthor: "no author found",
      text: /^Hello, here is some text/,
    }],
    ["deck.pptx", await buildPptx([["Opening slide words"]], { author: "Ann" }), {
      docSource: "a pptx file uploaded by the user.",
      docAuthor: "Ann",
      text: /^## Slide 1\n\nOpening slide words$/,
    }],
    ["sheet.xlsx", await buildXlsx([{ name: "S", rows: [["a", "b"], ["1", "2"]] }]), {
      docSource: "an xlsx file uploaded by the user.",
      text: /^## Sheet: S\n\nColumns: a \| b\na: 1; b: 2$/,
    }],
    ["letter.odt", await buildOdt(["Hello", "World"]), {
      docSource: "an odt file uploaded by the user.",
      text: /^Hello\n\nWorld$/,
    }],
    ["talk.odp", await buildOdp([["One"]]), {
      docSource: "an odp file uploaded by the user.",
      text: /^## Slide 1\n\nOne$/,
    }],
    [
      "book.epub",
      await buildEpub({
        title: "B",
        author: "Writer",
        chapters: [{ file: "a.xhtml", html: "<p>Once.</p>" }],
      }),
      {
        docSource: "an epub file uploaded by the user.",
        docAuthor: "Writer",
        text: /^Once\.$/,
      },
    ],
    [
      "mail.mbox",
      buildMbox([{
        from: "a@example.org",
        subject: "Hi",
        date: "Tue, 1 Jul 2025 10:00:00 +0000",
        body: "Body",
      }]),
      {
        docSource: "an mbox file uploaded by the user.",
        text: /^Subject: Hi\nFrom: a@example\.org\nDate: 2025-07-01T10:00:00\.000Z\n\nBody$/,
      },
    ],
  ];
  for (const [name, bytes, expected] of files) {
    const answer = await upload(app, slug, name, bytes);
    assert.equal(answer.status, 200, `${name}: ${JSON.stringify(answer.body)}`);
    const document = UploadAnswer.parse(answer.body).documents![0];
    assert.equal(document.title, name);
    assert.equal(document.docSource, expected.docSource, name);
    if (expected.docAuthor) assert.equal(document.docAuthor, expected.docAuthor, name);
    assert.ok(document.location.startsWith("custom-documents/"), name);
    const file = await stored(app, document.location);
    assert.match(file.pageContent, expected.text, name);
    assert.equal(file.wordCount, file.pageContent.split(" ").length);
    assert.ok(file.token_count_estimate > 0);
  }
  const pdf = (await app.deps.db.select().from(documents)).find((row) =>
    row.title === "pdflatex-4-pages.pdf"
  )!;
  const pdfFile = await stored(app, pdf.location);
  assert.deepEqual(pdfFile.pageBreaks, [0, 3932, 7887, 11842], "the page offsets are in the document JSON");
  const uploads = [...Deno.readDirSync(`${app.storageDir}/uploads`)].map((entry) => entry.name).sort();
  assert.equal(uploads.length, files.length, "every original is kept");
  assert.ok(uploads.every((name) => /^[0-9a-f-]{36}\.[a-z0-9]+$/.test(name)));
});

Deno.test("upload: metadata replaces the defaults, folderName picks the folder, bad values are 400", async () => {
  await using app = await createTestApp();
  const slug = await newWorkspace(app);
  const metadata = JSON.stringify({
    title: "Annual report",
    docAuthor: "Finance team",
    description: "The 2024 report",
    docSource: "imported by a script",
    chunkSource: "custom://reports/2024",
  });
  const answer = await upload(app, slug, "report.md", new TextEncoder().encode("# Report"), {
    metadata,
    folderName: "reports",
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const document = UploadAnswer.parse(answer.body).documents![0];
  assert.match(document.location, /^reports\/report\.md-[0-9a-f-]{36}\.json$/);
  assert.deepEqual(
    [document.title, document.docAuthor, document.description, document.docSource, document.chunkSource],
    ["Annual report", "Finance team", "The 2024 report", "imported by a script", "custom://reports/2024"],
  );

  const badJson = await upload(app, slug, "a.md", new TextEncoder().encode("x"), { metadata: "{nope" });
  assert.equal(badJson.status, 400);
  assert.match(String(badJson.body.error), /^metadata is not valid JSON/);
  const badField = await upload(app, slug, "a.md", new TextEncoder().encode("x"), {
    metadata: '{"title": 5}',
  });
  assert.equal(badField.status, 400);
  assert.match(String(badField.body.error), /^metadata\.title: /);
  const badFolder = await upload(app, slug, "a.md", new TextEncoder().encode("x"), { folderName: "../etc" });
  assert.equal(badFolder.status, 400);
  assert.match(String(badFolder.body.error), /is not a folder name/);
});

Deno.test("upload: metadata or folderName sent as a file is refused as before", async () => {
  await using app = await createTestApp();
  const slug = await newWorkspace(app);
  for (const path of ["upload", "upload-and-embed"]) {
    for (
      const [field, message] of [["metadata", /^metadata: /], [
        "folderName",
        /"\[object File\]" is not/,
      ]] as const
    ) {
      const form = new FormData();
      form.append(field, new File([new TextEncoder().encode('{"title":"x"}')], "m.json"));
      form.append("file", new File([new TextEncoder().encode("# Report")], "report.md"));
      const answer = await app.json(`/api/workspace/${slug}/${path}`, { method: "POST", body: form });
      assert.equal(answer.status, 400, `${path} ${field}: ${JSON.stringify(answer.body)}`);
      assert.match(String(answer.body.error), message);
    }
  }
  assert.equal((await app.deps.db.select().from(documents)).length, 0);
});

Deno.test("upload refuses encrypted, damaged, empty and image files with the reason, storing nothing", async () => {
  await using app = await createTestApp();
  const slug = await newWorkspace(app);
  const cases: [string, Uint8Array, string | RegExp][] = [
    [
      "libreoffice-writer-password.pdf",
      await fixture("libreoffice-writer-password.pdf"),
      "libreoffice-writer-password.pdf is encrypted (password-protected) and cannot be read.",
    ],
    [
      "pdflatex-4-pages-truncated.pdf",
      await fixture("pdflatex-4-pages-truncated.pdf"),
      "pdflatex-4-pages-truncated.pdf is not a valid PDF file or is damaged: Invalid PDF structure.",
    ],
    [
      "tables-truncated.docx",
      await fixture("tables-truncated.docx"),
      /^tables-truncated\.docx is not a valid Word \(\.docx\) file or is damaged: /,
    ],
    ["empty.docx", await fixture("empty.docx"), "No text content found in empty.docx."],
    [
      "imagemagick-lzw.pdf",
      await fixture("imagemagick-lzw.pdf"),
      "No text content found in imagemagick-lzw.pdf.",
    ],
    [
      "scan.jpg",
      new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
      "File extension .jpg not supported for parsing and cannot be assumed as text file type.",
    ],
  ];
  for (const [name, bytes, expected] of cases) {
    const answer = await upload(app, slug, name, bytes);
    assert.equal(answer.status, 400, `${name}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.success, false);
    if (typeof expected === "string") assert.equal(answer.body.error, expected);
    else assert.match(String(answer.body.error), expected);
  }
  assert.equal((await app.deps.db.select().from(documents)).length, 0);
  assert.equal(
    [...Deno.readDirSync(`${app.storageDir}/uploads`)].length,
    0,
    "refused originals are not kept",
  );
});

Deno.test("a file that parses too long is refused and the server goes on answering", async () => {
  await using app = await createTestApp({ env: { PARSE_TIMEOUT_SECONDS: "1" } });
  const slug = await newWorkspace(app);
  const answer = await upload(app, slug, "huge.xlsx", await buildXlsxBomb(100));
  assert.equal(answer.status, 400);
  assert.equal(answer.body.error, "huge.xlsx could not be parsed: it took longer than 1 s.");
  const next = await upload(app, slug, "fine.md", new TextEncoder().encode("Still answering"));
  assert.equal(next.status, 200);
  assert.equal((await app.json("/api/ping")).status, 200);
});

Deno.test("upload-and-embed parses, stores and embeds a PDF", async () => {
  await using app = await createTestApp();
  const slug = await newWorkspace(app);
  const answer = await upload(
    app,
    slug,
    "pdflatex-4-pages.pdf",
    await fixture("pdflatex-4-pages.pdf"),
    {},
    "upload-and-embed",
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const parsed = UploadAndEmbedAnswer.parse(answer.body);
  assert.equal(parsed.success, true);
  assert.match(parsed.document!.location, /^custom-documents\/pdflatex-4-pages\.pdf-[0-9a-f-]{36}\.json$/);
  const workspace = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
    `/api/workspace/${slug}`,
  );
  assert.deepEqual(workspace.body.workspace.documents.map((document) => document.docpath), [
    parsed.document!.location,
  ]);
  const refused = await upload(
    app,
    slug,
    "locked.pdf",
    await fixture("libreoffice-writer-password.pdf"),
    {},
    "upload-and-embed",
  );
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error, "locked.pdf is encrypted (password-protected) and cannot be read.");
});

Deno.test("an upload's bytes are freed once parsed and kept, its chunks' vectors and cache text once released", async () => {
  await using app = await createTestApp();
  // Large enough that every part of the worker's answer spans several reads of its output (each part is then a
  // buffer of its own, which a small part read in one piece is not).
  const original = new TextEncoder().encode(
    Array.from({ length: 4_000 }, (_, line) => `Line ${line} of a long text about freeing memory early.`)
      .join("\n"),
  );
  const bytes = original.slice();
  const received = await receiveUploadToEmbed(
    app.deps,
    new Request("http://127.0.0.1/api/workspace/files/upload-and-embed", { method: "POST" }),
    { file: new FormFile("long.txt", "text/plain", bytes) },
    nativeEmbedder(),
  );
  try {
    await received.save.written;
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(bytes.buffer.detached, true, "the upload's bytes are freed");
    // The original was kept whole before its bytes went.
    const kept = [...Deno.readDirSync(app.deps.paths.uploads)].map((entry) =>
      Deno.readFileSync(`${app.deps.paths.uploads}/${entry.name}`)
    );
    assert.ok(
      kept.some((file) => file.length === original.length && file.every((byte, at) => byte === original[at])),
    );
    const prepared = received.prepared!;
    const text = prepared.document.pageContent;
    assert.equal(prepared.chunks.chunk(text, 0).vector.length, 384);
    const cacheText = prepared.chunks.takeCacheText()!;
    assert.ok(cacheText.length > 0);
    prepared.release();
    // The vectors are freed: a use after the release fails loudly rather than reading nothing.
    assert.throws(() => prepared.chunks.chunk(text, 0), TypeError);
    assert.equal((cacheText.buffer as ArrayBuffer).detached, true, "the cache text is freed");
  } finally {
    await received.discard();
  }
});

Deno.test("an upload's cache text is freed once written to the vector cache, before its embedding ends", async () => {
  await using app = await createTestApp();
  const slug = await newWorkspace(app);
  const [workspace] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
  const text = Array.from({ length: 4_000 }, (_, line) => `Line ${line} of a long text to cache.`).join("\n");
  const received = await receiveUploadToEmbed(
    app.deps,
    new Request(`http://127.0.0.1/api/workspace/${slug}/upload-and-embed`, { method: "POST" }),
    { file: new FormFile("cached.txt", "text/plain", new TextEncoder().encode(text)) },
    nativeEmbedder(),
  );
  const prepared = received.prepared!;
  const seen: { taken: Uint8Array | null } = { taken: null };
  const take = prepared.chunks.takeCacheText.bind(prepared.chunks);
  prepared.chunks.takeCacheText = () => (seen.taken = take());
  try {
    const location = received.save.stored.location;
    const outcome = await addDocuments(app.deps, workspace, [location], {
      prepared: new Map([[location, prepared]]),
      documents: new Map([[location, received.save.document]]),
      fresh: true,
    });
    assert.deepEqual(outcome, { added: 1, failures: [] });
    assert.ok(seen.taken, "the embedding took the cache text");
    assert.equal((seen.taken.buffer as ArrayBuffer).detached, true, "freed before the release");
    // Written whole first: the cache entry holds every chunk.
    const entry = JSON.parse(
      await Deno.readTextFile(
        new VectorCache(app.deps.paths.vectorCache).fileFor(location, NATIVE_FINGERPRINT),
      ),
    );
    assert.equal(entry.chunks.length, prepared.chunks.count);
  } finally {
    prepared.release();
    await received.discard();
  }
});
