import { type Context, Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import { LECTERN_VERSION } from "../../shared/version.ts";
import { fail } from "../errors.ts";
import type { AppEnv } from "../http/env.ts";
import type { V1Route, V1Router } from "./router.ts";

export const DOCS_TITLE = "Lectern developer API";

/** The generated document: only the parts the docs and its tests read are typed. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  components?: { securitySchemes?: Record<string, unknown> };
  paths: Record<string, Record<string, OpenApiOperation | undefined>>;
}
export interface OpenApiOperation {
  summary?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const DESCRIPTION = [
  "Lectern answers the calls of AnythingLLM's developer API (`/api/v1/*`) the same way, so clients written for",
  "it work unchanged. Every call carries an API key, made on the Developer API settings page:",
  "`Authorization: Bearer <key>`. A key is full-access, read-only or limited to named workspaces, and may have",
  "a rate limit (429 with `Retry-After` when it is reached). `GET /api/v1/system/env-dump` is not offered: it",
  "would print the instance's secrets.",
].join(" ");

/**
 * The OpenAPI 3.1 document of the developer API, generated from the v1 router's route descriptions (the same
 * zod schemas the handlers parse with). The router is mounted under /v1 so paths read `/v1/...` beside the
 * server `/api`.
 */
export async function openApiDocument(router: V1Router): Promise<OpenApiDocument> {
  const parent = new Hono<AppEnv>().route("/v1", router.app);
  const document = await generateSpecs(parent, {
    documentation: {
      openapi: "3.1.0",
      info: { title: DOCS_TITLE, version: LECTERN_VERSION, description: DESCRIPTION },
      servers: [{ url: "/api" }],
      components: {
        securitySchemes: {
          apiKey: {
            type: "http",
            scheme: "bearer",
            description: "An API key from Settings → API keys.",
          },
        },
      },
      security: [{ apiKey: [] }],
    },
    // A path segment with a dot is not a static file here.
    excludeStaticFile: false,
  });
  return document as unknown as OpenApiDocument;
}

/** A route path in Hono's syntax as the document writes it: `/v1` before it, `:slug` (and `:x{re}?`) as `{slug}`. */
export function documentedPath(path: string): string {
  return `/v1${path}`.split("/").map((segment) => {
    const match = segment.match(/^:([^{?]+)(?:\{.+\})?\??$/);
    return match ? `{${match[1]}}` : segment;
  }).join("/");
}

/**
 * What the document lacks for these routes, one sentence per gap: a route absent from it, an operation without
 * its summary, or without the body or answer schema the route declares. Empty when every route is documented.
 */
export function documentGaps(document: OpenApiDocument, routes: readonly V1Route[]): string[] {
  const gaps: string[] = [];
  for (const route of routes) {
    const name = `${route.method.toUpperCase()} /api/v1${route.path}`;
    const operation = document.paths[documentedPath(route.path)]?.[route.method];
    if (!operation) {
      gaps.push(`${name} is missing from the document.`);
      continue;
    }
    if (!operation.summary || operation.summary !== route.doc.summary) gaps.push(`${name} has no summary.`);
    const body = operation.requestBody?.content;
    if (route.doc.body && !body?.["application/json"]?.schema) gaps.push(`${name} has no JSON body schema.`);
    if (route.doc.form && !body?.["multipart/form-data"]?.schema) gaps.push(`${name} has no form schema.`);
    const answer = operation.responses?.["200"]?.content;
    if (route.doc.response && !answer?.["application/json"]?.schema) {
      gaps.push(`${name} has no answer schema.`);
    }
  }
  return gaps;
}

/** The viewer's files in the client build (copied there by scripts/build_client.ts), by their URL name. */
const VIEWER_FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-init.js": "text/javascript; charset=utf-8",
  "SWAGGER-UI-LICENSE.txt": "text/plain; charset=utf-8",
};

/** The viewer's page: Swagger UI's files and its initializer, all from this server (the CSP allows no other). */
export function viewerPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${DOCS_TITLE}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<noscript>The API docs viewer needs JavaScript. The document itself is at <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-init.js"></script>
</body>
</html>
`;
}

/**
 * `GET /api/docs` (the interactive viewer), `GET /api/docs/openapi.json` (the document) and the viewer's files.
 * Public, like the reference's docs: they are answered before the session guard. `viewerDir` is where the
 * client build put the viewer's files (dist/static/docs).
 */
export function docsRoutes(router: V1Router, viewerDir: string) {
  let document: Promise<OpenApiDocument> | null = null;
  const page = (c: Context<AppEnv>) => c.html(viewerPage());
  const routes = new Hono<AppEnv>()
    .get("/docs", page)
    .get("/docs/", page)
    .get("/docs/openapi.json", async (c) => {
      document ??= openApiDocument(router).catch((error) => {
        document = null;
        throw error;
      });
      return c.json(await document);
    });
  for (const [file, type] of Object.entries(VIEWER_FILES)) {
    routes.get(`/docs/${file}`, async (c) => {
      let body: Uint8Array<ArrayBuffer>;
      try {
        body = await Deno.readFile(`${viewerDir}/${file}`);
      } catch {
        fail("not_found", 'The API docs viewer is not built: run "deno task build".');
      }
      return c.body(body, 200, { "Content-Type": type, "Cache-Control": "public, max-age=3600" });
    });
  }
  return routes;
}
