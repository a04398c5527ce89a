import { Hono } from "hono";
import type { Handler } from "hono";
import { createMiddleware } from "hono/factory";
import { describeRoute, resolver } from "hono-openapi";
import type { DescribeRouteOptions } from "hono-openapi";
import { eq } from "drizzle-orm";
import type * as z from "zod";
import { workspaces } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import type { ApiKeyPermission } from "../../shared/api/api_keys.ts";
import type { ApiKeyGrant } from "../api_keys/service.ts";
import { type Need, requireAccess } from "./access.ts";

type Method = "get" | "post" | "delete";

/** How a route is described in the OpenAPI document (docs at /api/docs). */
export interface V1Doc {
  summary: string;
  description?: string;
  /** The section of the docs: Auth, Workspaces, Threads, Chat, Documents, System, Admin, OpenAI-compatible. */
  tag: string;
  /** The JSON body, validated by the handler with this same schema (`parseJson`). */
  body?: z.ZodType;
  /** A multipart body (uploads), described by this schema. */
  form?: z.ZodType;
  /** Query parameters: name → description (all optional strings). */
  query?: Record<string, string>;
  /** The answer of a 200, as JSON; `stream` for a server-sent event stream. */
  response?: z.ZodType;
  stream?: boolean;
}

/** One route of the developer API, for the route table and the tests that walk it. */
export interface V1Route {
  method: Method;
  /** The path under /api/v1, in Hono's syntax. */
  path: string;
  need: Need;
  doc: V1Doc;
}

const ERROR = { description: "Refused: the body names the problem in `error`." };

function describe(doc: V1Doc, need: Need): DescribeRouteOptions {
  const json = (schema: z.ZodType) => ({ "application/json": { schema: resolver(schema) } });
  const scope = need.kind === "any"
    ? "Any key."
    : need.kind === "admin"
    ? "Full-access keys only."
    : need.kind === "instance"
    ? (need.write ? "Full-access keys only (it changes the instance)." : "Full-access and read-only keys.")
    : `Full-access keys; read-only keys ${
      need.permission === "read" ? "too" : "not"
    }; workspace-limited keys ${
      need.permission === "manage" ? "not" : `with the "${need.permission}" permission on this workspace`
    }.`;
  return {
    summary: doc.summary,
    description: [doc.description, `**Keys:** ${scope}`].filter(Boolean).join("\n\n"),
    tags: [doc.tag],
    security: [{ apiKey: [] }],
    parameters: Object.entries(doc.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    })),
    ...(doc.body ? { requestBody: { required: true, content: json(doc.body) } } : {}),
    ...(doc.form
      ? {
        requestBody: { required: true, content: { "multipart/form-data": { schema: resolver(doc.form) } } },
      }
      : {}),
    responses: {
      200: {
        description: "Done.",
        ...(doc.stream
          ? { content: { "text/event-stream": { schema: { type: "string" } } } }
          : doc.response
          ? { content: json(doc.response) }
          : {}),
      },
      400: ERROR,
      403: { description: "No valid API key, or the key's scope does not allow this call." },
      429: { description: "The key's rate limit is reached; `Retry-After` says when to try again." },
    },
  };
}

/**
 * The developer API's routes: each is declared with what it needs of the key (checked before the handler) and
 * its documentation (the OpenAPI document is generated from it), so no route can exist without either.
 */
export class V1Router {
  readonly app = new Hono<AppEnv>();
  readonly routes: V1Route[] = [];
  constructor(private readonly deps: Pick<Deps, "db">) {}

  on<P extends string>(method: Method, path: P, need: Need, doc: V1Doc, handler: Handler<AppEnv, P>): this {
    this.routes.push({ method, path, need, doc });
    this.app.on(method.toUpperCase(), path, describeRoute(describe(doc, need)), this.#access(need), handler);
    return this;
  }

  get<P extends string>(path: P, need: Need, doc: V1Doc, handler: Handler<AppEnv, P>): this {
    return this.on("get", path, need, doc, handler);
  }
  post<P extends string>(path: P, need: Need, doc: V1Doc, handler: Handler<AppEnv, P>): this {
    return this.on("post", path, need, doc, handler);
  }
  delete<P extends string>(path: P, need: Need, doc: V1Doc, handler: Handler<AppEnv, P>): this {
    return this.on("delete", path, need, doc, handler);
  }

  /** Checks the key against the route's need; a workspace named in the body is checked by the handler. */
  #access(need: Need) {
    return createMiddleware<AppEnv>(async (c, next) => {
      if (need.kind === "workspace" && need.from !== "body") {
        const slug = c.req.param("slug") ?? "";
        const [workspace] = await this.deps.db.select({ id: workspaces.id, slug: workspaces.slug })
          .from(workspaces).where(eq(workspaces.slug, slug));
        await requireAccess(this.deps, c.var.apiKey, need, workspace ?? { id: -1, slug });
      } else if (!(need.kind === "workspace" && need.from === "body")) {
        await requireAccess(this.deps, c.var.apiKey, need);
      } else if (!c.var.apiKey) {
        await requireAccess(this.deps, undefined, need);
      }
      await next();
    });
  }
}

/**
 * Checks a workspace named in the body (the OpenAI-compatible `model`, an upload's `addToWorkspaces`) against
 * the key, for routes declared with `needs.workspace(permission, "body")`.
 */
export async function requireWorkspaceAccess(
  deps: Pick<Deps, "db">,
  grant: ApiKeyGrant | undefined,
  slug: string,
  permission: ApiKeyPermission | "manage",
): Promise<void> {
  const [workspace] = await deps.db.select({ id: workspaces.id, slug: workspaces.slug }).from(workspaces)
    .where(eq(workspaces.slug, slug));
  await requireAccess(
    deps,
    grant,
    { kind: "workspace", permission, from: "body" },
    workspace ?? { id: -1, slug },
  );
}
