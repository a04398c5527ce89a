import assert from "node:assert/strict";
import * as z from "zod";
import { LECTERN_VERSION } from "../../shared/version.ts";
import { createTestApp } from "../testing/test_app.ts";
import { needs } from "./access.ts";
import {
  DOCS_TITLE,
  documentedPath,
  documentGaps,
  type OpenApiDocument,
  openApiDocument,
} from "./openapi.ts";
import { developerApi } from "./routes.ts";
import { V1Router } from "./router.ts";

Deno.test("documentedPath() writes Hono's parameters as OpenAPI's, under /v1", () => {
  assert.equal(documentedPath("/auth"), "/v1/auth");
  assert.equal(
    documentedPath("/workspace/:slug/thread/:threadSlug/chat"),
    "/v1/workspace/{slug}/thread/{threadSlug}/chat",
  );
  assert.equal(documentedPath("/document/:name{.+}"), "/v1/document/{name}");
  assert.equal(documentedPath("/users/:id?"), "/v1/users/{id}");
});

Deno.test("the document describes every route of the v1 router, with its summary and its schemas", async () => {
  await using app = await createTestApp();
  const router = developerApi(app.deps);
  const document = await openApiDocument(router);
  assert.equal(document.openapi, "3.1.0");
  assert.equal(document.info.title, DOCS_TITLE);
  assert.equal(document.info.version, LECTERN_VERSION);
  assert.deepEqual(document.servers, [{ url: "/api" }]);
  assert.deepEqual(document.components?.securitySchemes?.apiKey, {
    type: "http",
    scheme: "bearer",
    description: "An API key from Settings → API keys.",
  });
  assert.ok(router.routes.length > 0);
  assert.deepEqual(documentGaps(document, router.routes), []);
  const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
  assert.equal(operations.length, router.routes.length, "one operation per route, nothing else");
  assert.equal(document.paths["/v1/auth"]?.get?.summary, "Check an API key");
});

/** A router with one route of each kind the docs describe. */
function sampleRouter() {
  const router = new V1Router({ db: undefined as never });
  const ok = () => new Response("{}");
  router.post("/workspace/:slug/chat", needs.workspace("chat"), {
    summary: "Chat with a workspace",
    tag: "Chat",
    body: z.object({ message: z.string() }),
    response: z.object({ textResponse: z.string() }),
  }, ok);
  router.post("/document/upload", needs.write, {
    summary: "Upload a document",
    tag: "Documents",
    form: z.object({ file: z.string() }),
  }, ok);
  router.get("/workspaces", needs.read, { summary: "List workspaces", tag: "Workspaces" }, ok);
  return router;
}

Deno.test("documentGaps() names a route missing from the document, and one without its summary or schemas", async () => {
  const router = sampleRouter();
  const document = await openApiDocument(router);
  assert.deepEqual(documentGaps(document, router.routes), []);
  const chat = document.paths["/v1/workspace/{slug}/chat"]?.post;
  assert.deepEqual(
    (chat?.requestBody?.content?.["application/json"]?.schema as { required?: string[] }).required,
    ["message"],
    "the body schema is the route's own",
  );

  const extra = {
    method: "delete" as const,
    path: "/workspace/:slug",
    need: needs.workspace("manage"),
    doc: { summary: "Delete a workspace", tag: "Workspaces" },
  };
  assert.deepEqual(documentGaps(document, [...router.routes, extra]), [
    "DELETE /api/v1/workspace/:slug is missing from the document.",
  ]);

  const damaged = structuredClone(document) as OpenApiDocument;
  delete damaged.paths["/v1/workspace/{slug}/chat"]!.post!.summary;
  delete damaged.paths["/v1/workspace/{slug}/chat"]!.post!.requestBody;
  delete damaged.paths["/v1/workspace/{slug}/chat"]!.post!.responses!["200"].content;
  delete damaged.paths["/v1/document/upload"]!.post!.requestBody;
  assert.deepEqual(documentGaps(damaged, router.routes), [
    "POST /api/v1/workspace/:slug/chat has no summary.",
    "POST /api/v1/workspace/:slug/chat has no JSON body schema.",
    "POST /api/v1/workspace/:slug/chat has no answer schema.",
    "POST /api/v1/document/upload has no form schema.",
  ]);
});

Deno.test("GET /api/docs and the document are public; the viewer's files come from this server", async () => {
  await using app = await createTestApp();
  const page = await app.request("/api/docs");
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'(;|$)/);
  const html = await page.text();
  const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
  assert.deepEqual(scripts.map(([, attributes]) => attributes), [
    ' src="/api/docs/swagger-ui-bundle.js"',
    ' src="/api/docs/swagger-init.js"',
  ]);
  assert.ok(scripts.every(([, , inline]) => inline === ""), "no inline script");
  assert.match(html, /href="\/api\/docs\/swagger-ui.css"/);
  assert.doesNotMatch(html, /https?:\/\//, "nothing from another server");
  assert.equal((await app.request("/api/docs/")).status, 200);

  const document = await app.json<OpenApiDocument>("/api/docs/openapi.json");
  assert.equal(document.status, 200);
  assert.deepEqual(document.body, JSON.parse(JSON.stringify(await openApiDocument(developerApi(app.deps)))));

  for (
    const [file, type, text] of [
      ["swagger-ui-bundle.js", "text/javascript", "SwaggerUIBundle"],
      ["swagger-ui.css", "text/css", ".swagger-ui"],
      ["swagger-init.js", "text/javascript", "/api/docs/openapi.json"],
    ]
  ) {
    const answer = await app.request(`/api/docs/${file}`);
    assert.equal(answer.status, 200, `${file} (run "deno task build" first)`);
    assert.match(answer.headers.get("content-type") ?? "", new RegExp(`^${type}`));
    const body = await answer.text();
    assert.ok(body.includes(text), file);
    assert.doesNotMatch(body, /sourceMappingURL/, `${file}: no source map to fetch`);
  }
  const unknown = await app.json("/api/docs/secrets.json");
  assert.equal(unknown.status, 404, "only the viewer's own files are served");
});
