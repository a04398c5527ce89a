import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import type { Context } from "hono";
import * as z from "zod";
import { eq } from "drizzle-orm";
import { documents } from "../../db/schema.ts";
import { AppError, fail, messageOf } from "../errors.ts";
import { type ConnectorImport, RepoBranchesInput, RepoImportInput } from "../../shared/api/connectors.ts";
import { ConfluenceOptions, WebsiteOptions, YouTubeOptions } from "../../shared/api/connectors_sources.ts";
import { parseMetadata } from "../documents/live_sync_queues.ts";
import { connectorContext } from "./fetch.ts";
import { type ConnectorImports, connectorImports, reasonOf } from "./import.ts";
import { connectorSources, REPO_HOSTS } from "./registry.ts";
import { type ConnectorContext, ConnectorError, type ConnectorSource } from "./source.ts";
import { transcriptDocument } from "./sources/youtube.ts";

const answer = (success: boolean, reason: string | null, data: unknown) => ({ success, reason, data });

/**
 * The data connectors' calls (spec 02 §7, docs/api-compat.md#data-connectors): `{success, reason, data}`, a
 * failure answered 200 with its sentence in `reason` as the reference's collector does. Admins and managers
 * only, as the reference's `flexUserRoleValid([admin, manager])`.
 */
export function connectorRoutes(deps: Deps) {
  const imports = connectorImports(deps);
  const routes = new Hono<AppEnv>();
  for (const [id, host] of Object.entries(REPO_HOSTS)) {
    const branchesBody = (message: string) => answer(false, message, { branches: [] });
    const repoBody = (message: string) => answer(false, message, {});
    routes.post(`/ext/${id}/branches`, requirePermission("documents:manage"), async (c) => {
      const input = await parseJson(c, RepoBranchesInput, branchesBody);
      const controller = new AbortController();
      c.req.raw.signal.addEventListener("abort", () => controller.abort(), { once: true });
      try {
        const branches = await host.branches(input, connectorContext(deps, controller.signal));
        return c.json(answer(true, null, { branches }));
      } catch (error) {
        logUnexpected(deps, id, error);
        return c.json(branchesBody(reasonOf(error)));
      }
    });
    routes.post(`/ext/${id}/repo`, requirePermission("documents:manage"), async (c) => {
      const input = await parseJson(c, RepoImportInput, repoBody);
      let started: ConnectorImport;
      let described: ReturnType<typeof host.describe>;
      try {
        const options = await host.prepare(input, connectorContext(deps, c.req.raw.signal));
        described = host.describe(options);
        started = imports.start(
          host,
          options,
          `${described.author}/${described.repo}:${described.branch}`,
          described,
        );
      } catch (error) {
        logUnexpected(deps, id, error);
        return c.json(repoBody(reasonOf(error)));
      }
      if (input.background) {
        return c.json(
          answer(true, null, { ...described, files: 0, destination: started.folder, import: started }),
        );
      }
      const ended = await imports.ended(started.id)!;
      if (ended.status === "failed") return c.json(repoBody(ended.reason ?? "A processing error occurred."));
      return c.json(
        answer(true, null, { ...described, files: ended.done, destination: ended.folder, import: ended }),
      );
    });
  }
  sourceRoutes(deps, imports, routes);
  const listBody = (message: string) => answer(false, message, {});
  return routes
    .get(
      "/ext/imports",
      requirePermission("documents:manage"),
      (c) => c.json(answer(true, null, { imports: imports.list() })),
    )
    .get("/ext/imports/:id", requirePermission("documents:manage"), (c) => {
      const found = imports.get(c.req.param("id"));
      if (!found) fail("not_found", "Cannot find that import.", listBody("Cannot find that import."));
      return c.json(answer(true, null, { import: found }));
    });
}

/** The answer's text fields, kept with the import for the toast at its end (a video's title and author). */
function textFields(data: Record<string, unknown>): Record<string, string> | undefined {
  const kept = Object.entries(data).filter((entry): entry is [string, string] =>
    typeof entry[1] === "string"
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

function logUnexpected(deps: Deps, source: string, error: unknown) {
  if (error instanceof ConnectorError) return;
  deps.log.warn("A data connector call failed", { source, error: messageOf(error) });
}

/** What a source's route starts: the source, its options, the progress's label and the answer's `data`. */
interface Prepared<Options> {
  source: ConnectorSource<Options>;
  options: Options;
  label: string;
  /** `data` of the answer, besides `import` (the reference's fields). */
  data: Record<string, unknown>;
}

/**
 * The YouTube, website crawl and Confluence routes. Each answers `{success, reason, data}` with 200, a failure
 * (a bad field included, as the reference's collector does) with its sentence in `reason` and `data: {}`.
 * With `background: true` the answer comes at once with `data.import`; without it, when the import has ended.
 */
function sourceRoutes(deps: Deps, imports: ConnectorImports, routes: Hono<AppEnv>) {
  const sources = connectorSources(deps.config);
  const failed = (message: string) => answer(false, message, {});

  const route = <T extends z.ZodType>(
    path: string,
    schema: T,
    prepare: (options: z.output<T>, context: ConnectorContext) => Promise<Prepared<z.output<T>>>,
    finished: (ended: ConnectorImport, data: Record<string, unknown>) => Promise<unknown> = (ended, data) =>
      Promise.resolve({ ...data, destination: ended.folder, import: ended }),
  ) => {
    routes.post(path, requirePermission("documents:manage"), async (c) => {
      const parsed = await readOptions(c, schema);
      if ("message" in parsed) return c.json(failed(parsed.message));
      let prepared: Prepared<z.output<T>>;
      let started: ConnectorImport;
      try {
        prepared = await prepare(parsed.options, connectorContext(deps, c.req.raw.signal));
        started = imports.start(prepared.source, prepared.options, prepared.label, textFields(prepared.data));
      } catch (error) {
        logUnexpected(deps, path, error);
        return c.json(failed(reasonOf(error)));
      }
      if (parsed.background) {
        return c.json(answer(true, null, { ...prepared.data, destination: started.folder, import: started }));
      }
      const ended = await imports.ended(started.id)!;
      if (ended.status === "failed") return c.json(failed(ended.reason ?? "A processing error occurred."));
      return c.json(answer(true, null, await finished(ended, prepared.data)));
    });
  };

  // The transcript is fetched before the import starts: the answer names the video's title and author (the
  // reference's toast), and a video without captions fails at once.
  route("/ext/youtube/transcript", YouTubeOptions, async (options, context) => {
    const document = await transcriptDocument(options, context);
    const source: ConnectorSource<YouTubeOptions> = {
      ...sources.youtube,
      async *documents() {
        yield document;
      },
    };
    return {
      source,
      options,
      label: document.title,
      data: { title: document.title, author: document.metadata?.docAuthor ?? null },
    };
  });

  // The reference answers the scraped pages' documents; Lectern leaves out their text (`pageContent`).
  route(
    "/ext/website-depth",
    WebsiteOptions,
    (options) => Promise.resolve({ source: sources.website, options, label: options.url, data: {} }),
    async (ended) => {
      const rows = await deps.db.select({ metadata: documents.metadata }).from(documents)
        .where(eq(documents.folder, ended.folder));
      return rows.map((row) => parseMetadata(row.metadata));
    },
  );

  route("/ext/confluence", ConfluenceOptions, (options) =>
    Promise.resolve({
      source: sources.confluence,
      options,
      label: `${options.spaceKey} (${new URL(options.baseUrl).host})`,
      data: { spaceKey: options.spaceKey },
    }));
}

/** The body's options and `background`, or the first problem's sentence (the reference's exact texts). */
async function readOptions<T extends z.ZodType>(
  c: Context<AppEnv>,
  schema: T,
): Promise<{ options: z.output<T>; background: boolean } | { message: string }> {
  try {
    const body = await parseJson(c, z.unknown(), (message) => answer(false, message, {}));
    const parsed = schema.safeParse(body);
    if (!parsed.success) return { message: parsed.error.issues[0]?.message ?? "Invalid request body." };
    const background = typeof body === "object" && body !== null &&
      (body as { background?: unknown }).background === true;
    return { options: parsed.data, background };
  } catch (error) {
    if (error instanceof AppError) return { message: error.message };
    throw error;
  }
}
