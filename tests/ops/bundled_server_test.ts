// The bundled server (dist/server/, scripts/build_server.ts), which `deno task start` and `deno task lectern`
// run, works as the source does: a real process on fresh storage migrates its database, answers /api/ping,
// serves a page with the client's bundle, parses a file in a worker process started from the bundle's entry,
// embeds documents and finds them through the developer API (each loaded from its own chunk on first use), and
// describes that API in its OpenAPI document.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { buildServer, SERVER_BUNDLE, serverIsStale } from "../../scripts/build_server.ts";
import { commandLineOf, descendantPids, startServerProcess } from "../../server/testing/process.ts";
import { parseFile } from "../../server/documents/parse_worker.ts";
import { buildEpub, buildOdt, buildPptx, buildXlsx } from "../../server/documents/parsers/test_files.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test({
  name: "the bundled server migrates, serves pages and the client, parses in a worker, embeds and finds",
  ignore: Deno.build.os !== "linux",
  async fn() {
    if (await serverIsStale()) assert.ok(await buildServer(), "The server bundle could not be built.");
    const storage = await Deno.makeTempDir({ prefix: "lectern-bundled-" });
    try {
      await using server = await startServerProcess({ STORAGE_DIR: storage }, 180_000, {
        // Run from another folder than the project's: the bundle finds its files from where it is.
        wrap: (
          [deno],
        ) => [deno, "run", "-A", "--node-modules-dir=manual", "--config", `${ROOT}deno.json`, SERVER_BUNDLE],
      });
      assert.match(server.output(), /Database migrated/);
      assert.ok(
        commandLineOf(server.pid).includes(SERVER_BUNDLE),
        "The server process does not run the bundle.",
      );

      // A page, rendered with the pages' chunk, and the client's script it names, served from dist/static.
      const page = await (await fetch(`${server.url}/`)).text();
      assert.match(page, /<title>[^<]*Lectern<\/title>/);
      const script = /<script type="module" src="(\/static\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      assert.ok(script, page.slice(0, 2000));
      const asset = await fetch(`${server.url}${script}`);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get("content-type") ?? "", /javascript/);
      assert.ok((await asset.text()).length > 100);

      const created = await (await fetch(`${server.url}/api/workspace/new`, {
        method: "POST",
        body: JSON.stringify({ name: "Herons" }),
      })).json();
      assert.equal(created.workspace.slug, "herons");
      // An HTML file is parsed in a worker process: from the bundle, that is the bundle's entry.
      const form = new FormData();
      form.append(
        "file",
        new File(
          [`<html><body><h1>Herons</h1><p>${
            "Grey herons wait in the shallows of slow rivers. ".repeat(40)
          }</p>`],
          "herons.html",
          { type: "text/html" },
        ),
      );
      const embedded = await fetch(`${server.url}/api/workspace/herons/upload-and-embed`, {
        method: "POST",
        body: form,
      });
      const answer = await embedded.json();
      assert.equal(answer.success, true, JSON.stringify(answer));
      const workers = descendantPids(server.pid).map(commandLineOf).filter((line) =>
        line.includes("parse-worker")
      );
      assert.ok(workers.length >= 1, "No parse worker is running.");
      assert.ok(workers.every((line) => line.includes(SERVER_BUNDLE)), workers.join("\n"));

      // Every parser gives the bundled server the text it gives from source: a package imported on first use
      // must keep its named exports (a bundled CommonJS one once lost them, and Readability never ran).
      const fixtures = `${ROOT}tests/fixtures/documents/`;
      const samples: [string, Uint8Array][] = [
        ...[
          "handler.html",
          "tables.docx",
          "footnotes.docx",
          "airline-safety.csv",
          "pdflatex-4-pages.pdf",
          "eip-2488.md",
        ]
          .map((name): [string, Uint8Array] => [name, Deno.readFileSync(`${fixtures}${name}`)]),
        ["deck.pptx", await buildPptx([["Herons fish at dawn."], ["Egrets follow them."]])],
        ["sheet.xlsx", await buildXlsx([{ name: "Birds", rows: [["name", "wings"], ["heron", 2]] }])],
        ["notes.odt", await buildOdt(["Herons nest in colonies."])],
        [
          "book.epub",
          await buildEpub({
            title: "Herons",
            author: "A. Birder",
            chapters: [{
              file: "one.xhtml",
              html: "<html><body><h1>One</h1><p>Herons wait.</p></body></html>",
            }],
          }),
        ],
      ];
      for (const [name, bytes] of samples) {
        const upload = new FormData();
        upload.append("file", new File([new Uint8Array(bytes)], name));
        const answer = await (await fetch(`${server.url}/api/workspace/herons/upload`, {
          method: "POST",
          body: upload,
        })).json();
        assert.equal(answer.success, true, `${name}: ${JSON.stringify(answer)}`);
        const location: string = answer.documents[0].location;
        const stored = JSON.parse(await Deno.readTextFile(`${storage}/documents/${location}`));
        const limits = { timeoutSeconds: 60, memoryMb: 512, maxTextChars: 16 * 1024 * 1024 };
        const fromSource = await parseFile({ name, bytes }, limits);
        assert.equal(
          stored.pageContent,
          fromSource.text,
          `${name}: the bundle's text differs from the source's`,
        );
      }

      // Through the developer API, itself a chunk loaded on its first call.
      const made = await (await fetch(`${server.url}/api/system/generate-api-key`, {
        method: "POST",
        body: "{}",
      })).json();
      const search = await (await fetch(`${server.url}/api/v1/workspace/herons/vector-search`, {
        method: "POST",
        headers: { Authorization: `Bearer ${made.apiKey.secret}` },
        body: JSON.stringify({ query: "Where do herons wait?", topN: 1 }),
      })).json();
      assert.ok(search.results?.length >= 1, JSON.stringify(search));
      assert.match(search.results[0].text, /Grey herons wait/);

      // The API's document: its JSON Schema comes from zod's core, which the bundle leaves in node_modules.
      const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
      assert.deepEqual(
        document.paths["/v1/workspace/{slug}/vector-search"]?.post?.requestBody?.content?.["application/json"]
          ?.schema?.properties?.query,
        { type: "string", minLength: 1, maxLength: 20000 },
        JSON.stringify(document).slice(0, 2000),
      );
    } finally {
      await Deno.remove(storage, { recursive: true });
    }
  },
});
