import { htmlToMarkdown } from "../../documents/parsers/html.ts";
import type { ConfluenceOptions } from "../../../shared/api/connectors_sources.ts";
import {
  type ConnectorContext,
  type ConnectorDocument,
  ConnectorError,
  type ConnectorSkip,
  type ConnectorSource,
  type RefetchInput,
} from "../source.ts";
import { reasonOf } from "./common.ts";

/** Pages asked for per request (Confluence answers at most its own limit, and says where the next ones are). */
export const CONFLUENCE_PAGE_SIZE = 25;
/** A page's storage HTML larger than this is skipped (it is converted in the server's process). */
export const MAX_PAGE_CHARS = 5 * 1024 * 1024;

/** The reference's sentence for a space without pages. */
export const NO_PAGES = "No pages found for that Confluence space.";

/**
 * Where the REST API lives: a cloud site's is `<origin>/wiki/rest/api` (the path of the base URL is ignored, as
 * the reference does); Server and Data Center keep their context path (`https://intranet/confluence`).
 */
export function confluenceRoot(options: Pick<ConfluenceOptions, "baseUrl" | "cloud">): string {
  const url = new URL(options.baseUrl);
  if (options.cloud) return `${url.origin}/wiki`;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** Basic (username and API token, cloud or server) or Bearer (a Server/Data Center personal access token). */
function authorization(options: ConfluenceOptions): { header: string; kind: "basic" | "bearer" } {
  const token = options.personalAccessToken ?? (!options.username ? options.accessToken : undefined);
  if (token) return { header: `Bearer ${token}`, kind: "bearer" };
  const bytes = new TextEncoder().encode(`${options.username}:${options.accessToken}`);
  return { header: `Basic ${btoa(String.fromCharCode(...bytes))}`, kind: "basic" };
}

interface ContentPage {
  id: string;
  type?: string;
  title: string;
  ancestors?: { id: string; title: string }[];
  version?: { number?: number; when?: string; by?: { displayName?: string } };
  body?: { storage?: { value?: string } };
  children?: { attachment?: { results?: { title?: string }[]; size?: number } };
  _links?: { webui?: string; tinyui?: string };
}

interface ContentList {
  results?: ContentPage[];
  start?: number;
  limit?: number;
  size?: number;
  _links?: { next?: string };
}

/**
 * The pages of one Confluence space (cloud, or Server/Data Center), one document each, titled with their place in
 * the page tree (`Space › Parent › Page`); the storage-format HTML (code macros as fenced code) becomes Markdown.
 * The REST API's pages are followed through `_links.next`. Attachments are skipped, each counted. The
 * credentials are sent only as the request's Authorization header, never kept in a document.
 */
export const confluenceSource: ConnectorSource<ConfluenceOptions> = {
  id: "confluence",
  folder: (options) =>
    `confluence-${new URL(options.baseUrl).hostname}-${options.spaceKey}`.toLowerCase().replace(
      /[^a-z0-9]+/g,
      "-",
    )
      .replace(/^-+|-+$/g, ""),
  documents: (options, context) => spacePages(options, context),
  syncParams: (options) => ({ baseUrl: options.baseUrl, spaceKey: options.spaceKey, cloud: options.cloud }),
  credentials: (options) => {
    const { username, accessToken, personalAccessToken } = options;
    const kept = Object.entries({ username, accessToken, personalAccessToken }).filter(([, value]) => value);
    return kept.length > 0 ? Object.fromEntries(kept) as Record<string, string> : null;
  },
  refetch: (input, context) => refetchPage(input, context),
};

/** One page again by its id, with the import's credentials (live sync). */
async function refetchPage(
  { key, params, credentials }: RefetchInput,
  context: ConnectorContext,
): Promise<ConnectorDocument | ConnectorSkip> {
  if (typeof params.baseUrl !== "string" || typeof params.spaceKey !== "string") {
    throw new ConnectorError(
      "This Confluence page was imported before it could be watched. Import the space again.",
    );
  }
  if (!credentials) {
    throw new ConnectorError(
      "The Confluence credentials of this page are no longer kept. Import the space again to watch it.",
    );
  }
  const options = {
    baseUrl: params.baseUrl,
    spaceKey: params.spaceKey,
    cloud: params.cloud !== false,
    ...credentials,
  } as ConfluenceOptions;
  const root = confluenceRoot(options);
  const page = await getJson<ContentPage>(
    `${root}/rest/api/content/${encodeURIComponent(key)}?expand=body.storage,version,ancestors`,
    options,
    authorization(options),
    context,
    `The Confluence page ${key} no longer exists, or the account cannot see it.`,
  );
  return await pageDocument(page, { root, spaceName: options.spaceKey, options });
}

async function* spacePages(
  options: ConfluenceOptions,
  context: ConnectorContext,
): AsyncGenerator<ConnectorDocument | ConnectorSkip> {
  const root = confluenceRoot(options);
  const auth = authorization(options);
  const space = await getJson<{ key?: string; name?: string }>(
    `${root}/rest/api/space/${encodeURIComponent(options.spaceKey)}`,
    options,
    auth,
    context,
  );
  const spaceName = space.name?.trim() || options.spaceKey;

  const query = new URLSearchParams({
    spaceKey: options.spaceKey,
    type: "page",
    status: "current",
    limit: String(CONFLUENCE_PAGE_SIZE),
    start: "0",
    expand: "body.storage,version,ancestors,children.attachment",
  });
  let next: string | null = `${root}/rest/api/content?${query}`;
  const visited = new Set<string>();
  let documents = 0;
  while (next) {
    if (visited.has(next)) break; // A server that points back at a page already read.
    visited.add(next);
    const list: ContentList = await getJson<ContentList>(next, options, auth, context);
    const results = list.results ?? [];
    for (const page of results) {
      const item = await pageDocument(page, { root, spaceName, options });
      if ("skip" in item) {
        yield item;
        continue;
      }
      documents++;
      yield item;
      for (const attachment of page.children?.attachment?.results ?? []) {
        yield {
          skip: `${item.title} › ${attachment.title ?? "attachment"}`,
          why: "Attachments are not imported.",
        };
      }
    }
    next = nextPage(root, list, results.length);
  }
  if (documents === 0) throw new ConnectorError(NO_PAGES);
}

/** The next page of results: `_links.next` (a path under the API root), else none. */
function nextPage(root: string, list: ContentList, count: number): string | null {
  const link = list._links?.next;
  if (!link || count === 0) return null;
  // The link is relative to the site's base (context path included); only paths of the REST API are followed,
  // on the same host the import was given.
  const path = link.startsWith(root) ? link.slice(root.length) : link;
  if (!path.startsWith("/rest/api/")) return null;
  return `${root}${path}`;
}

async function pageDocument(
  page: ContentPage,
  { root, spaceName, options }: { root: string; spaceName: string; options: ConfluenceOptions },
): Promise<ConnectorDocument | ConnectorSkip> {
  const hierarchy = [spaceName, ...(page.ancestors ?? []).map((ancestor) => ancestor.title), page.title];
  const title = hierarchy.map((part) => part.trim()).filter(Boolean).join(" › ");
  const storage = page.body?.storage?.value ?? "";
  if (storage.length > MAX_PAGE_CHARS) {
    return { skip: title, why: `The page is larger than ${MAX_PAGE_CHARS / 1024 / 1024} MB.` };
  }
  return {
    key: page.id,
    title,
    text: await storageToMarkdown(storage, page.title),
    url: page._links?.webui
      ? `${root}${page._links.webui}`
      : options.cloud
      ? `${root}/spaces/${encodeURIComponent(options.spaceKey)}/pages/${page.id}`
      : `${root}/pages/viewpage.action?pageId=${page.id}`,
    version: String(page.version?.number ?? 0),
    metadata: {
      docAuthor: page.version?.by?.displayName || undefined,
      description: `${page.title} in the Confluence space ${spaceName}.`,
      published: page.version?.when || undefined,
    },
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Confluence storage format as Markdown: code macros become fenced code in their language, images and
 * attachments are dropped, macro parameters left out, links keep their text; the rest is HTML.
 */
export async function storageToMarkdown(storage: string, pageTitle = ""): Promise<string> {
  const html = storage
    .replace(
      /<ac:structured-macro\b[^>]*ac:name="(?:code|noformat)"[^>]*>([\s\S]*?)<\/ac:structured-macro>/g,
      (_whole, inner: string) => {
        const language =
          /<ac:parameter ac:name="language">([^<]*)<\/ac:parameter>/.exec(inner)?.[1]?.trim() ?? "";
        const code =
          /<ac:plain-text-body><!\[CDATA\[([\s\S]*?)\]\]><\/ac:plain-text-body>/.exec(inner)?.[1] ?? "";
        const languageClass = /^[\w+#-]+$/.test(language) ? ` class="language-${language}"` : "";
        return `<pre><code${languageClass}>${escapeHtml(code.replace(/^\n+|\s+$/g, ""))}</code></pre>`;
      },
    )
    .replace(/<ac:image\b[\s\S]*?<\/ac:image>/g, "")
    .replace(/<ri:attachment\b[^>]*\/>/g, "")
    .replace(/<ac:parameter\b[\s\S]*?<\/ac:parameter>/g, "")
    .replace(/<ac:link\b[^>]*>([\s\S]*?)<\/ac:link>/g, (_whole, inner: string) => {
      const body = /<ac:(?:plain-text-)?link-body>([\s\S]*?)<\/ac:(?:plain-text-)?link-body>/.exec(inner)
        ?.[1];
      const target = /ri:content-title="([^"]*)"/.exec(inner)?.[1] ?? "";
      return body ?? target;
    })
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_whole, text: string) => escapeHtml(text));
  const { markdown } = await htmlToMarkdown(html, { readable: false });
  return markdown || pageTitle;
}

async function getJson<T>(
  url: string,
  options: ConfluenceOptions,
  auth: { header: string; kind: "basic" | "bearer" },
  context: ConnectorContext,
  notFound?: string,
): Promise<T> {
  let response: Response;
  try {
    response = await context.fetch(url, {
      headers: { Authorization: auth.header, Accept: "application/json" },
      signal: context.signal,
    });
  } catch (error) {
    context.signal.throwIfAborted();
    throw new ConnectorError(`Could not reach Confluence at ${new URL(url).origin}: ${reasonOf(error)}.`);
  }
  const json = /json/i.test(response.headers.get("content-type") ?? "");
  const notConfluence = () =>
    new ConnectorError(
      `${
        confluenceRoot(options)
      } did not answer as Confluence's REST API does. Check the base URL and the deployment type.`,
    );
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    // A 404 page of HTML is a path that is not the REST API (a wrong base URL or deployment type).
    if (response.status === 404 && !json) throw notConfluence();
    if (response.status === 404 && notFound) throw new ConnectorError(notFound);
    throw new ConnectorError(statusMessage(response.status, options, auth.kind));
  }
  try {
    if (!json) throw new SyntaxError("Not JSON");
    return await response.json() as T;
  } catch {
    context.signal.throwIfAborted();
    throw notConfluence();
  }
}

function statusMessage(status: number, options: ConfluenceOptions, kind: "basic" | "bearer"): string {
  const space = options.spaceKey;
  switch (status) {
    case 401:
      return kind === "bearer"
        ? "Confluence refused the personal access token. Check it and try again."
        : "Confluence refused the username and access token. Check them and try again.";
    case 403:
      return `The account cannot read the Confluence space ${space}.`;
    case 404:
      return `The Confluence space ${space} does not exist, or the account cannot see it.`;
    case 429:
      return "Confluence is limiting requests from this server for now. Try again later.";
    default:
      return `Confluence answered ${status} for the space ${space}.`;
  }
}
