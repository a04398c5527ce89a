import { Hono } from "hono";

export interface FakeConfluencePage {
  id: string;
  title: string;
  /** Ids of the ancestors, from the root down to the parent. */
  parents?: string[];
  storage: string;
  version?: number;
  attachments?: string[];
  status?: "current" | "draft";
}

export interface FakeConfluenceSpace {
  key: string;
  name: string;
  pages: FakeConfluencePage[];
}

export interface FakeConfluence {
  /** `http://127.0.0.1:<port>`: plays the site (`https://harbour.atlassian.net`, `https://wiki.intranet`). */
  baseURL: string;
  /** The REST API's context path: `/wiki` for cloud, `/confluence` for this Server/Data Center. */
  contextPath: string;
  /** The Authorization headers received. */
  authorizations: string[];
  /** The `start` of every content list asked for. */
  contentStarts: number[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The credentials each kind accepts. */
export const CLOUD_USER = { username: "ana@harbour.test", accessToken: "cloud-api-token" };
export const SERVER_PAT = "server-personal-access-token";

/**
 * Confluence's REST API v1 on loopback. Cloud (`kind: "cloud"`) answers under `/wiki/rest/api` and takes Basic
 * authentication with an email and API token; Server/Data Center answers under its context path
 * (`/confluence/rest/api`) and takes a personal access token as a Bearer token. `GET space/{key}` and
 * `GET content?spaceKey&type=page&status&limit&start&expand` (at most `maxLimit` results per answer, with
 * `_links.next` while more remain; `ancestors`, `version`, `body.storage` and `children.attachment` expanded);
 * `GET content/{id}` (one page, read from `spaces` at each call, so a test may change it).
 * A wrong credential is 401, an unknown space 404 (JSON), any other path a 404 page of HTML.
 */
export function startFakeConfluence(
  kind: "cloud" | "server",
  spaces: FakeConfluenceSpace[],
  options: { maxLimit?: number } = {},
): FakeConfluence {
  const contextPath = kind === "cloud" ? "/wiki" : "/confluence";
  const maxLimit = options.maxLimit ?? 2;
  const authorizations: string[] = [];
  const contentStarts: number[] = [];
  const expected = kind === "cloud"
    ? `Basic ${btoa(`${CLOUD_USER.username}:${CLOUD_USER.accessToken}`)}`
    : `Bearer ${SERVER_PAT}`;
  const app = new Hono();
  const api = `${contextPath}/rest/api`;
  app.use(`${api}/*`, async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    authorizations.push(header);
    if (header !== expected) {
      return c.json(
        { statusCode: 401, message: "Client must be authenticated to access this resource." },
        401,
      );
    }
    await next();
  });
  /** A page as the REST API answers it, with the parts `expand` names. */
  const present = (space: FakeConfluenceSpace, page: FakeConfluencePage, expand: Set<string>) => ({
    id: page.id,
    type: "page",
    status: page.status ?? "current",
    title: page.title,
    ...(expand.has("ancestors")
      ? {
        ancestors: (page.parents ?? []).map((id) => ({
          id,
          type: "page",
          title: space.pages.find((other) => other.id === id)?.title,
        })),
      }
      : {}),
    ...(expand.has("version")
      ? {
        version: {
          number: page.version ?? 1,
          when: "2026-11-20T10:00:00.000Z",
          by: { displayName: "Ana Harbour" },
        },
      }
      : {}),
    ...(expand.has("body.storage")
      ? { body: { storage: { value: page.storage, representation: "storage" } } }
      : {}),
    ...(expand.has("children.attachment")
      ? {
        children: {
          attachment: {
            results: (page.attachments ?? []).map((title, index) => ({
              id: `att${page.id}${index}`,
              title,
            })),
            size: (page.attachments ?? []).length,
          },
        },
      }
      : {}),
    _links: {
      webui: kind === "cloud"
        ? `/spaces/${space.key}/pages/${page.id}/${page.title.replace(/\s+/g, "+")}`
        : `/pages/viewpage.action?pageId=${page.id}`,
    },
  });
  // One page by its id (what live sync fetches again).
  app.get(`${api}/content/:id`, (c) => {
    for (const space of spaces) {
      const page = space.pages.find((candidate) => candidate.id === c.req.param("id"));
      if (page) return c.json(present(space, page, new Set((c.req.query("expand") ?? "").split(","))));
    }
    return c.json({ statusCode: 404, message: "No content found with id" }, 404);
  });
  const spaceOf = (key: string | undefined) => spaces.find((space) => space.key === key);
  const noSpace = (key: string | undefined) =>
    Response.json({ statusCode: 404, message: `No space found with key : ${key}` }, { status: 404 });
  app.get(`${api}/space/:key`, (c) => {
    const space = spaceOf(c.req.param("key"));
    if (!space) return noSpace(c.req.param("key"));
    return c.json({
      id: 9001,
      key: space.key,
      name: space.name,
      type: "global",
      _links: { webui: `/spaces/${space.key}` },
    });
  });
  app.get(`${api}/content`, (c) => {
    const key = c.req.query("spaceKey");
    const space = spaceOf(key);
    if (!space) return noSpace(key);
    const start = Number(c.req.query("start") ?? 0);
    const limit = Math.min(Number(c.req.query("limit") ?? 25), maxLimit);
    contentStarts.push(start);
    const status = c.req.query("status") ?? "current";
    const pages = space.pages.filter((page) =>
      (page.status ?? "current") === status && (c.req.query("type") ?? "page") === "page"
    );
    const expand = new Set((c.req.query("expand") ?? "").split(","));
    const results = pages.slice(start, start + limit).map((page) => present(space, page, expand));
    const query = new URLSearchParams(new URL(c.req.url).search);
    query.set("start", String(start + results.length));
    const more = start + results.length < pages.length;
    return c.json({
      results,
      start,
      limit,
      size: results.length,
      _links: {
        base: `${new URL(c.req.url).origin}${contextPath}`,
        context: contextPath,
        self: `${new URL(c.req.url).origin}${contextPath}/rest/api/content`,
        ...(more ? { next: `/rest/api/content?${query}` } : {}),
      },
    });
  });
  app.notFound((c) => c.html("<html><body><h1>Page not found</h1></body></html>", 404));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => await server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}`,
    contextPath,
    authorizations,
    contentStarts,
    close,
    [Symbol.asyncDispose]: close,
  };
}
