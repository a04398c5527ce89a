import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { newWorkspace, rawMultipart, stillAnswers, upload } from "./support.ts";

const CANARY = `CANARY-${crypto.randomUUID()}`;

/**
 * A storage folder inside a parent folder that also holds canaries: a text file, a document-shaped JSON file
 * and a folder with a document in it, each a name a traversal would aim at.
 */
async function plantedApp(): Promise<{ app: TestApp; parent: string; canaries: Map<string, string> }> {
  const parent = await Deno.makeTempDir({ prefix: "lectern-traversal-" });
  const canaries = new Map<string, string>([
    [`${parent}/canary.txt`, `${CANARY} text`],
    [`${parent}/canary.json`, JSON.stringify({ id: "x", title: "canary", pageContent: `${CANARY} json` })],
    [`${parent}/canary-folder/inside.json`, JSON.stringify({ id: "y", pageContent: `${CANARY} folder` })],
    [`${parent}/storage-canary.txt`, `${CANARY} beside`],
  ]);
  await Deno.mkdir(`${parent}/canary-folder`);
  for (const [path, text] of canaries) await Deno.writeTextFile(path, text);
  const app = await createTestApp({ storageDir: `${parent}/storage` });
  return { app, parent, canaries };
}

async function canariesSurvive(canaries: Map<string, string>) {
  for (const [path, text] of canaries) assert.equal(await Deno.readTextFile(path), text, `${path} changed`);
}

/** Every file the storage folder's parent holds outside the storage folder. */
async function outsideFiles(parent: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (directory: string) => {
    for await (const entry of Deno.readDir(directory)) {
      const path = `${directory}/${entry.name}`;
      if (path === `${parent}/storage`) continue;
      if (entry.isDirectory) await walk(path);
      else found.push(path);
    }
  };
  await walk(parent);
  return found.sort();
}

Deno.test("security: names and paths from requests never reach outside the storage folder", async (t) => {
  const { app, parent, canaries } = await plantedApp();
  await using _app = app;
  const before = await outsideFiles(parent);
  const slug = await newWorkspace(app, "Traversal");
  const seen: string[] = [];
  const call = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const answer = await app.json(path, init);
    const text = JSON.stringify(answer.body);
    seen.push(text);
    assert.ok(!text.includes(CANARY), `${path} answered a canary's content`);
    assert.notEqual(answer.status, 500, `${path}: ${text}`);
    return answer;
  };
  const good = await upload(app, slug, "kept.txt", "A document that stays where it is.");
  const kept = good.body.documents![0].location;

  const hostileNames = [
    "../../canary.txt",
    "../../../canary.txt",
    "..\\..\\canary.txt",
    "/etc/passwd",
    `${parent}/canary.txt`,
    "C:\\Windows\\win.ini",
    "a\u0000b.txt",
    "%2e%2e%2f%2e%2e%2fcanary.txt",
    "..%2F..%2Fcanary.txt",
    "....//....//canary.txt",
    "..",
    ".",
    `${"a".repeat(5000)}.txt`,
  ];
  await t.step(
    "[traversal] uploaded file names never become paths: documents and originals get generated names",
    async () => {
      for (const name of hostileNames) {
        const answer = await upload(app, slug, name, "Some words of text.");
        assert.equal(answer.status, 200, name.slice(0, 40));
        const document = answer.body.documents![0];
        assert.match(
          document.location,
          /^custom-documents\/[\p{L}\p{N}_][\p{L}\p{N}._-]*-[0-9a-f-]{36}\.json$/u,
        );
        assert.ok(document.location.length < 200, "the stored name is bounded");
      }
      for (const entry of Deno.readDirSync(`${app.storageDir}/uploads`)) {
        assert.match(entry.name, /^[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/, entry.name);
      }
      assert.deepEqual(await outsideFiles(parent), before);
      await canariesSurvive(canaries);
    },
  );

  await t.step(
    "[traversal] an uploaded name is kept as sent (its last segment) as the title, never garbled",
    async () => {
      const cases: [string, string][] = [
        ["../../canary.txt", "canary.txt"],
        ["..\\..\\canary.txt", "canary.txt"],
        ["a\u0000b.txt", "a\u0000b.txt"],
        ["%2e%2e%2fx.txt", "%2e%2e%2fx.txt"],
        ['quote"d.txt', "quote%22d.txt"],
        ["new\r\nline.txt", "new%0D%0Aline.txt"],
        ["back\\slash.txt", "slash.txt"],
        ["semi;colon=x.txt", "semi;colon=x.txt"],
      ];
      for (const [sent, title] of cases) {
        const answer = await upload(app, slug, sent, "x y z");
        assert.equal(answer.status, 200, sent);
        assert.equal(answer.body.documents![0].title, title, JSON.stringify(sent));
      }
    },
  );

  await t.step(
    "[traversal] a raw CR or LF inside a quoted multipart file name is refused with a sentence",
    async () => {
      for (
        const parameter of [
          '"a\r\nb.txt"',
          '"a\rb.txt"',
          '"a\nb.txt"',
          '"a\r\nContent-Type: text/html\r\n\r\n../../canary.txt"',
          '"unclosed.txt',
          '"a"b.txt"',
        ]
      ) {
        const { body, contentType } = rawMultipart(parameter, "raw text");
        const answer = await call(`/api/workspace/${slug}/upload`, {
          method: "POST",
          body,
          headers: { "Content-Type": contentType },
        });
        assert.equal(answer.status, 400, JSON.stringify(parameter));
        assert.deepEqual(answer.body, {
          success: false,
          error:
            "The upload's file name is not one quoted name: a file name cannot hold a line break or an unencoded quote.",
        });
      }
    },
  );

  await t.step(
    "[traversal] percent-encoded and RFC 5987 names are decoded as names only, never as paths",
    async () => {
      for (const parameter of ['"..%2F..%2Fcanary.txt"', "x; filename*=UTF-8''..%2F..%2Fcanary.txt"]) {
        const { body, contentType } = rawMultipart(parameter, "encoded text");
        const answer = await call(`/api/workspace/${slug}/upload`, {
          method: "POST",
          body,
          headers: { "Content-Type": contentType },
        });
        assert.equal(answer.status, 200, parameter);
        const location = (answer.body as { documents: { location: string }[] }).documents[0].location;
        assert.match(location, /^custom-documents\/[^/]+\.json$/);
      }
      await canariesSurvive(canaries);
    },
  );

  const badFolders = [
    "..",
    ".",
    "../x",
    "../../canary-folder",
    "/tmp/x",
    "a/b",
    "a\\b",
    "%2e%2e",
    "x\u0000y",
    ".hidden",
    "-dash",
    "a".repeat(300),
  ];
  await t.step("[traversal] create-folder refuses every path-like or hidden folder name", async () => {
    for (const name of badFolders) {
      const answer = await call("/api/document/create-folder", { json: { name } });
      assert.equal(answer.status, 400, name.slice(0, 40));
      assert.equal((answer.body as { success: boolean }).success, false);
    }
    assert.deepEqual(
      [...Deno.readDirSync(`${app.storageDir}/documents`)].map((entry) => entry.name).sort(),
      ["custom-documents"],
    );
    assert.deepEqual(await outsideFiles(parent), before);
  });

  await t.step("[traversal] an upload's folderName cannot be a path", async () => {
    for (const folderName of ["../../canary-folder", "..", "/tmp", "a/b", "..\\x"]) {
      const answer = await upload(app, slug, "f.txt", "text", { fields: { folderName } });
      assert.equal(answer.status, 400, folderName);
      assert.match(String(answer.body.error), /is not a folder name/);
    }
  });

  const badLocations = [
    "../../canary.json",
    "../canary.json",
    "custom-documents/../../../canary.json",
    "custom-documents/../../canary.json",
    `${parent}/canary.json`,
    "/canary.json",
    "..%2F..%2Fcanary.json",
    "custom-documents/..%2f..%2fcanary.json",
    "../canary-folder/inside.json",
    "custom-documents/.json",
    "custom-documents\\..\\..\\canary.json",
    "custom-documents/x.json\u0000.txt",
  ];

  await t.step(
    "[traversal] remove-document refuses locations outside the documents folder and deletes nothing",
    async () => {
      for (const name of badLocations) {
        const answer = await call("/api/system/remove-document", { method: "DELETE", json: { name } });
        assert.equal(answer.status, 400, name);
        assert.match(String((answer.body as { error: string }).error), /is not a document location/, name);
      }
      await canariesSurvive(canaries);
      assert.ok(await Deno.stat(`${app.storageDir}/documents/${kept}`));
    },
  );

  await t.step(
    "[traversal] remove-documents with a list of hostile locations deletes nothing outside",
    async () => {
      const answer = await call("/api/system/remove-documents", {
        method: "DELETE",
        json: { names: badLocations },
      });
      assert.notEqual(answer.status, 200, "a list with paths in it is refused");
      assert.equal(answer.status, 400);
      await canariesSurvive(canaries);
    },
  );

  await t.step(
    "[traversal] remove-folder refuses '..', '.', paths and the storage folder's neighbours",
    async () => {
      for (const name of [...badFolders, "../storage", "../canary-folder", "", " "]) {
        const answer = await call("/api/system/remove-folder", { method: "DELETE", json: { name } });
        assert.equal(answer.status, 400, JSON.stringify(name.slice(0, 40)));
      }
      await canariesSurvive(canaries);
      assert.ok(await Deno.stat(`${app.storageDir}/lectern.db`));
      assert.ok(await Deno.stat(`${app.storageDir}/documents/${kept}`));
    },
  );

  await t.step("[traversal] move-files refuses a source or target outside the documents folder", async () => {
    for (const bad of badLocations) {
      for (const files of [[{ from: kept, to: bad }], [{ from: bad, to: "custom-documents/stolen.json" }]]) {
        const answer = await call("/api/document/move-files", { json: { files } });
        assert.equal(answer.status, 400, `${JSON.stringify(files)}: ${JSON.stringify(answer.body)}`);
      }
    }
    assert.ok(await Deno.stat(`${app.storageDir}/documents/${kept}`), "the source stayed");
    assert.deepEqual(await outsideFiles(parent), before);
    await canariesSurvive(canaries);
  });

  await t.step(
    "[traversal] update-embeddings adds and deletes never read or embed a file outside",
    async () => {
      for (const bad of badLocations) {
        const answer = await call(`/api/workspace/${slug}/update-embeddings`, {
          json: { adds: [bad], deletes: [bad] },
        });
        if (answer.status === 200) {
          const body = answer.body as { workspace: { documents: unknown[] }; message: string | null };
          assert.deepEqual(body.workspace.documents, [], bad);
          assert.match(String(body.message), /failed to add/, bad);
        } else assert.equal(answer.status, 400, bad);
      }
      const search = await call(`/api/system/local-files/search?q=${CANARY}`);
      assert.equal((search.body as { totalCount: number }).totalCount, 0);
    },
  );

  await t.step("[traversal] pin, watch and remove-and-unembed refuse hostile document paths", async () => {
    for (const bad of badLocations) {
      const pin = await call(`/api/workspace/${slug}/update-pin`, {
        json: { docPath: bad, pinStatus: true },
      });
      const watch = await call(`/api/workspace/${slug}/update-watch-status`, {
        json: { docPath: bad, watchStatus: true },
      });
      const remove = await call(`/api/workspace/${slug}/remove-and-unembed`, {
        method: "DELETE",
        json: { documentLocation: bad },
      });
      for (const answer of [pin, watch, remove]) assert.equal(answer.status, 400, bad);
    }
    await canariesSurvive(canaries);
  });

  await t.step(
    "[traversal] a folder listing never lists or reads a folder outside the documents folder",
    async () => {
      for (
        const folder of ["..", "../..", "../canary-folder", "%2e%2e", "/", parent, "custom-documents/.."]
      ) {
        const answer = await call(`/api/system/local-files?folder=${encodeURIComponent(folder)}`);
        assert.equal(answer.status, 400, folder);
      }
      const shells = await call("/api/system/local-files");
      const names = (shells.body as { localFiles: { items: { name: string }[] } }).localFiles.items.map((
        item,
      ) => item.name);
      assert.ok(!names.includes("canary-folder") && !names.includes("storage"), names.join());
    },
  );

  await t.step("[traversal] profile picture ids and a forged pfpFilename cannot read files", async () => {
    for (const id of ["..%2F..%2F..%2Fcanary.txt", "1%2F..%2F..%2Fcanary.txt", "%2e%2e", "1.0", "0x1"]) {
      const response = await app.request(`/api/system/pfp/${id}`);
      assert.ok([204, 404].includes(response.status), id);
      assert.ok(!(await response.text()).includes(CANARY));
    }
    const update = await call(`/api/workspace/${slug}/update`, {
      json: { name: "Traversal", pfpFilename: "../../../canary.txt" },
    });
    assert.ok(update.status === 200 || update.status === 400);
    const picture = await app.request(`/api/workspace/${slug}/pfp`);
    assert.equal(picture.status, 204, "the body cannot set the stored picture name");
    assert.ok(!(await picture.text()).includes(CANARY));
  });

  await t.step(
    "[traversal] a picture upload with a path as its name is stored under a generated name",
    async () => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
      const form = new FormData();
      form.append("file", new File([png], "../../../canary.png"));
      const answer = await call(`/api/workspace/${slug}/upload-pfp`, { method: "POST", body: form });
      assert.equal(answer.status, 200);
      for (const entry of Deno.readDirSync(`${app.storageDir}/assets/pfp`)) {
        assert.match(entry.name, /^[0-9a-f-]{36}\.png$/);
      }
      assert.deepEqual(await outsideFiles(parent), before);
    },
  );

  await t.step(
    "[traversal] /static/assets/ serves nothing above the built assets, however the dots are written",
    async () => {
      for (
        const path of [
          "/static/assets/../../deno.json",
          "/static/assets/..%2f..%2fdeno.json",
          "/static/assets/%2e%2e/%2e%2e/deno.json",
          "/static/assets/%2e%2e%2f%2e%2e%2fdeno.json",
          "/static/assets/..%5c..%5cdeno.json",
          "/static/assets/....//....//deno.json",
          "/static/assets/%252e%252e/%252e%252e/deno.json",
          "/static/assets/..%00/deno.json",
          "/static/assets/../../server/app.ts",
          "/static/assets/../../../../../../etc/passwd",
        ]
      ) {
        const response = await app.request(path);
        const text = await response.text();
        assert.ok(!text.includes('"nodeModulesDir"'), `${path} served deno.json`);
        assert.ok(!text.includes("export function createApp"), `${path} served source`);
        assert.ok(!/^root:/m.test(text), `${path} served /etc/passwd`);
      }
    },
  );

  await t.step(
    "[traversal] encoded slashes and dots in workspace and thread slugs find nothing",
    async () => {
      for (
        const segment of [
          "..%2F..%2Fcanary",
          "%2e%2e",
          `${slug}%2F..%2F${slug}`,
          `${slug}%2Fthreads`,
          "..%5c..%5c",
          "%00",
        ]
      ) {
        const answer = await call(`/api/workspace/${segment}`);
        assert.ok([400, 404].includes(answer.status), `${segment}: ${answer.status}`);
        // URLs treat "%2e%2e" as "..": that one names the workspace's own chats, inside the API.
        if (segment === "%2e%2e") continue;
        const threads = await call(`/api/workspace/${slug}/thread/${segment}/chats`);
        assert.ok([400, 404].includes(threads.status), `thread ${segment}: ${threads.status}`);
      }
    },
  );

  await t.step(
    "[traversal] after every attempt the canaries are untouched and nothing new sits outside",
    async () => {
      await canariesSurvive(canaries);
      assert.deepEqual(await outsideFiles(parent), before);
      assert.ok(!seen.some((text) => text.includes(CANARY)));
      await stillAnswers(app);
    },
  );

  await app.close();
  await Deno.remove(parent, { recursive: true });
});
