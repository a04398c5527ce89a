import assert from "node:assert/strict";
import { workspaceChats } from "../../db/schema.ts";
import { configuredTestApp, createTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { buildXlsxBomb, buildZipBomb } from "../../server/documents/parsers/test_files.ts";
import { newWorkspace, stillAnswers, upload } from "./support.ts";

const tooLarge = (what: string) => ({
  success: false,
  error: `The request body is too large: the limit is ${what}.`,
});

/** A body that streams `total` bytes of `fill` without a Content-Length, counting how much was pulled. */
function streamed(total: number, fill = 0x61) {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(fill);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunk.length, total - sent);
      sent += size;
      controller.enqueue(chunk.subarray(0, size));
    },
  });
  return { body, sent: () => sent };
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

function docxBomb(megabytes: number) {
  return buildZipBomb(
    {
      "[Content_Types].xml":
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
      "_rels/.rels":
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    "word/document.xml",
    `${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`,
    "<w:p><w:r><w:t>tide tables and harbour charts</w:t></w:r></w:p>",
    "</w:body></w:document>",
    megabytes,
  );
}

function epubBomb(megabytes: number) {
  return buildZipBomb(
    {
      mimetype: "application/epub+zip",
      "META-INF/container.xml":
        `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
      "content.opf":
        `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Bomb</dc:title></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
    },
    "c1.xhtml",
    `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><body>`,
    "<p>tide tables and harbour charts</p>",
    "</body></html>",
    megabytes,
  );
}

/**
 * A streamed upload without Content-Length meets the app's bound for every multipart body (the largest upload
 * limit plus 1 MB) while it is read, so it may be refused with that limit instead of the route's.
 */
const UPLOAD_LIMIT =
  /^The (file is too large: the limit is 1 MB|request body is too large: the limit is 6 MB)\.$/;

const PARSE_LIMIT =
  /^\S+ could not be parsed: (it ran out of memory \(the limit is 64 MB\)|it took longer than 20 s|its text is larger than \d+ MB)\.$/;

Deno.test("security: oversized bodies are refused with 413 before they are read whole", async (t) => {
  await using app = await createTestApp({ env: { MAX_UPLOAD_MB: "1" } });
  const slug = await newWorkspace(app, "Sizes");
  const post = (path: string, init: RequestInit) => app.json(path, { method: "POST", ...init });

  for (
    const path of [
      "/api/request-token",
      "/api/system/recover-account",
      "/api/system/reset-password",
      "/api/invite/abc",
    ]
  ) {
    await t.step(
      `[resource-abuse] ${path}: a body over 64 KB is 413 before login, with and without Content-Length`,
      async () => {
        const big = JSON.stringify({ username: "admin", password: "x".repeat(70 * 1024) });
        const sized = await post(path, { body: big });
        assert.equal(sized.status, 413);
        assert.deepEqual(sized.body, tooLarge("64 KB"));
        const stream = streamed(10 * 1024 * 1024);
        const unsized = await post(path, { body: stream.body, duplex: "half" } as RequestInit);
        assert.equal(unsized.status, 413);
        assert.deepEqual(unsized.body, tooLarge("64 KB"));
        assert.ok(stream.sent() < 2 * 1024 * 1024, `read ${stream.sent()} bytes of 10 MB`);
      },
    );
  }

  await t.step(
    "[resource-abuse] a JSON body claiming more than 64 MB is refused from its Content-Length",
    async () => {
      const response = await app.request(`/api/workspace/${slug}/update`, {
        method: "POST",
        headers: { "Content-Length": String(65 * 1024 * 1024) },
        body: "{}",
      });
      assert.equal(response.status, 413);
      assert.deepEqual(await response.json(), tooLarge("64 MB"));
    },
  );

  await t.step("[resource-abuse] a streamed JSON body over 64 MB is cut off at the limit", async () => {
    const stream = streamed(80 * 1024 * 1024);
    const answer = await post(
      `/api/workspace/${slug}/update`,
      { body: stream.body, duplex: "half" } as RequestInit,
    );
    assert.equal(answer.status, 413);
    assert.deepEqual(answer.body, tooLarge("64 MB"));
    assert.ok(stream.sent() < 70 * 1024 * 1024, `read ${stream.sent()} bytes`);
  });

  await t.step("[resource-abuse] an upload over the upload limit is 413 with the limit named", async () => {
    const answer = await upload(app, slug, "big.txt", "a".repeat(2 * 1024 * 1024));
    assert.equal(answer.status, 413);
    assert.deepEqual(answer.body, { success: false, error: "The file is too large: the limit is 1 MB." });
  });

  await t.step(
    "[resource-abuse] a multipart body over the limit without Content-Length is cut off at the limit",
    async () => {
      const stream = streamed(30 * 1024 * 1024);
      const answer = await post(`/api/workspace/${slug}/upload`, {
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
        body: stream.body,
        duplex: "half",
      } as RequestInit);
      assert.equal(answer.status, 413);
      assert.match(String((answer.body as { error: string }).error), UPLOAD_LIMIT);
      assert.ok(stream.sent() < 8 * 1024 * 1024, `read ${stream.sent()} bytes of 30 MB`);
    },
  );

  await t.step(
    "[resource-abuse] a chunked multipart body over the limit, without Content-Length, is 413 too",
    async () => {
      const base = app.listen();
      const stream = streamed(20 * 1024 * 1024, 0x62);
      const boundary = "----b";
      const head = new TextEncoder().encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`,
      );
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(head);
          const reader = stream.body.getReader();
          while (true) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            if (done) break;
            try {
              controller.enqueue(value!);
            } catch {
              break;
            }
          }
          try {
            controller.close();
          } catch {
            // cancelled
          }
        },
      });
      const response = await fetch(`${base}/api/workspace/${slug}/upload`, {
        method: "POST",
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: "half",
      } as RequestInit).catch((error) => error as Error);
      assert.ok(response instanceof Response, String(response));
      assert.equal(response.status, 413);
      assert.match((await response.json()).error, UPLOAD_LIMIT);
      assert.equal([...Deno.readDirSync(`${app.storageDir}/uploads`)].length, 0, "nothing was stored");
    },
  );

  await stillAnswers(app);
});

Deno.test("security: deep, wide and long inputs are refused with a sentence, and the server keeps answering", async (t) => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const slug = await newWorkspace(app, "Abuse");

  const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
  const deepObject = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
  await t.step("[resource-abuse] JSON nested 100,000 levels deep answers 400, not a crash", async () => {
    const cases: [string, string][] = [
      ["/api/system/update-env", `{"GenericOpenAiModelPref":${deep(100_000)}}`],
      [`/api/workspace/${slug}/update`, `{"name":${deepObject(100_000)}}`],
      [
        "/api/system/slash-command-presets",
        `{"command":${deepObject(100_000)},"prompt":"p","description":"d"}`,
      ],
      [`/api/workspace/${slug}/update-embeddings`, `{"adds":${deep(100_000)}}`],
      ["/api/document/move-files", `{"files":[{"from":${deepObject(100_000)},"to":"a/b.json"}]}`],
    ];
    for (const [path, body] of cases) {
      const response = await app.request(path, { method: "POST", body });
      assert.equal(response.status, 400, path);
      const answer = await response.json();
      assert.ok(JSON.stringify(answer).length < 2000, "the answer does not echo the input");
    }
    await stillAnswers(app);
  });

  await t.step("[resource-abuse] huge lists of ids are refused with the limit named", async () => {
    const names = Array.from({ length: 10_001 }, (_, index) => `custom-documents/d${index}.json`);
    const removed = await app.json("/api/system/remove-documents", { method: "DELETE", json: { names } });
    assert.equal(removed.status, 400);
    assert.equal(
      (removed.body as { error: string }).error,
      "names: At most 10000 documents can be removed at once.",
    );
    const moves = names.map((name) => ({ from: name, to: name }));
    const moved = await app.json("/api/document/move-files", { json: { files: moves } });
    assert.equal(moved.status, 400);
    assert.match(JSON.stringify(moved.body), /At most 10000 documents can be moved at once/);
    const adds = await app.json(`/api/workspace/${slug}/update-embeddings`, {
      json: { adds: names.slice(0, 1001) },
    });
    assert.equal(adds.status, 400);
    assert.equal(
      (adds.body as { message: string }).message,
      "adds: Too big: expected array to have <=1000 items",
    );
    await stillAnswers(app);
  });

  await t.step(
    "[resource-abuse] a message over 200,000 characters is refused whole and nothing is stored",
    async () => {
      const before = (await app.deps.db.select().from(workspaceChats)).length;
      const requests = llm.chatRequests.length;
      const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
        method: "POST",
        body: JSON.stringify({ message: "a".repeat(200_001) }),
      });
      assert.equal(response.status, 413);
      const answer = await response.json();
      assert.match(answer.error, /^The message is too long: at most 200,000 characters\./);
      assert.equal((await app.deps.db.select().from(workspaceChats)).length, before);
      assert.equal(llm.chatRequests.length, requests, "the model was not asked");
    },
  );

  await t.step(
    "[resource-abuse] a message of exactly 200,000 characters is accepted (the boundary)",
    async () => {
      const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
        method: "POST",
        body: JSON.stringify({ message: "b".repeat(200_000) }),
      });
      assert.equal(response.status, 200);
      await response.body?.cancel();
    },
  );

  await t.step(
    "[resource-abuse] names at and over their length limits answer 400 with the field's message",
    async () => {
      const workspace = await app.json("/api/workspace/new", { json: { name: "w".repeat(256) } });
      assert.equal(workspace.status, 400);
      assert.match(JSON.stringify(workspace.body), /255 characters/);
      const search = await app.json(`/api/system/local-files/search?q=${"(a+)+$".repeat(40)}`);
      assert.equal(search.status, 400);
      assert.equal(
        (search.body as { error: string }).error,
        "The search text is too long (at most 200 characters).",
      );
    },
  );

  await t.step(
    "[resource-abuse] catastrophic-backtracking patterns in names and search answer normally",
    async () => {
      const evil = [
        `${"a".repeat(60)}!`,
        `${"(a+)+".repeat(30)}b`,
        `${"-".repeat(190)}x`,
        `${". ".repeat(99)}`,
      ];
      for (const q of evil) {
        const answer = await app.json(`/api/system/local-files/search?q=${encodeURIComponent(q)}`);
        assert.equal(answer.status, 200, q);
      }
      for (const name of [`${"a-".repeat(120)}!`, `${"!@*.".repeat(60)}`, `${"\u0301".repeat(250)}`]) {
        const created = await app.json("/api/workspace/new", { json: { name } });
        assert.equal(created.status, 200, name.slice(0, 20));
      }
      const upload1 = await upload(app, slug, `${"a.".repeat(2000)}txt`, "Some words.");
      assert.equal(upload1.status, 200);
      await stillAnswers(app);
    },
  );

  await t.step(
    "[resource-abuse] forty uploads at once are all answered, and the server keeps answering",
    async () => {
      const answers = await Promise.all(
        Array.from(
          { length: 40 },
          (_, index) => upload(app, slug, `many-${index}.md`, `# Note ${index}\n\nText.`),
        ),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        Array(40).fill(200),
      );
      await stillAnswers(app);
    },
  );
});

Deno.test("security: zip bombs give a clear limit failure, and the server keeps answering", async (t) => {
  await using app = await createTestApp({ env: { PARSE_MEMORY_MB: "64", PARSE_TIMEOUT_SECONDS: "20" } });
  const slug = await newWorkspace(app, "Bombs");
  const check = async (app: TestApp, name: string, bytes: Uint8Array) => {
    assert.ok(bytes.length < 3 * 1024 * 1024, `${name} is small packed (${bytes.length} bytes)`);
    const answer = await upload(app, slug, name, bytes);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.match(String(answer.body.error), PARSE_LIMIT);
    assert.ok(String(answer.body.error).startsWith(`${name} could not be parsed`));
    await stillAnswers(app);
  };

  await t.step(
    "[resource-abuse] a .docx whose document inflates to 150 MB is refused with the limit",
    async () => {
      await check(app, "bomb.docx", await docxBomb(150));
    },
  );

  await t.step(
    "[resource-abuse] an .epub whose chapter inflates to 150 MB is refused with the limit",
    async () => {
      await check(app, "bomb.epub", await epubBomb(150));
    },
  );

  await t.step(
    "[resource-abuse] an .xlsx whose sheet inflates to 100 MB is refused with the limit",
    async () => {
      await check(app, "bomb.xlsx", await buildXlsxBomb(100));
    },
  );

  await t.step("[resource-abuse] after the bombs an ordinary file is parsed as usual", async () => {
    const answer = await upload(app, slug, "after.md", "# Still here\n\nThe parser is fine.");
    assert.equal(answer.status, 200);
    assert.equal([...Deno.readDirSync(`${app.storageDir}/uploads`)].length, 1, "no bomb was kept");
  });
});
