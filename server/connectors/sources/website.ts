import robotsParserModule from "robots-parser";
import type { Config } from "../../config.ts";
import { AppError } from "../../errors.ts";
import { finalUrlOf } from "../../http/url_guard.ts";
import { linkDocumentFromBytes, linkText, readLinkBody } from "../../documents/links.ts";
import type { WebsiteOptions } from "../../../shared/api/connectors_sources.ts";
import {
  type ConnectorContext,
  type ConnectorDocument,
  ConnectorError,
  type ConnectorSkip,
  type ConnectorSource,
} from "../source.ts";
import { decodeEntities, pause, reasonOf, textVersion } from "./common.ts";

/** The name robots.txt rules are matched against, and part of the User-Agent the crawl sends. */
export const CRAWLER_NAME = "Lectern";
const USER_AGENT = `Mozilla/5.0 (compatible; ${CRAWLER_NAME}/1.0; document import)`;

/** The wait between two requests to the site unless robots.txt asks for more (its Crawl-delay). */
export const POLITENESS_DELAY_MS = 1000;
/** The longest Crawl-delay honoured; a site asking for more is crawled at this pace. */
export const MAX_CRAWL_DELAY_MS = 10_000;

export interface WebsiteDeps {
  /** The upload size limit and the parse worker's limits, as for a link upload. */
  config: Config;
  /** The wait between requests (tests pass 0). */
  delayMs?: number;
  maxCrawlDelayMs?: number;
  /** How the crawl waits (tests record the waits instead of timing them). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The sentence of every link left when the crawl reached its page limit. */
export const pageLimitReason = (maxLinks: number) =>
  `The crawl stopped at its limit of ${maxLinks} ${maxLinks === 1 ? "page" : "pages"}.`;

/** `docs-example-com` for `https://docs.example.com/guide`: one folder per site. */
export function websiteFolder(options: Pick<WebsiteOptions, "url">): string {
  const host = new URL(options.url).hostname.toLowerCase().replace(/^www\./, "");
  return host.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "website";
}

/** The URL a page is known by: no fragment. */
function pageKey(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

/**
 * The links of an HTML page, resolved against its `<base href>` or its address; `rel="nofollow"` links are
 * left out. Read with linear regular expressions in this process (the page's Markdown comes from the parse
 * worker, as for a link upload).
 */
export function pageLinks(html: string, pageUrl: URL): URL[] {
  const baseHref = /<base\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(html);
  let base = pageUrl;
  if (baseHref) {
    try {
      base = new URL(decodeEntities(baseHref[1] ?? baseHref[2] ?? baseHref[3] ?? ""), pageUrl);
    } catch {
      base = pageUrl;
    }
  }
  const links: URL[] = [];
  for (const match of html.matchAll(/<a\s([^>]*)>/gi)) {
    const attributes = match[1];
    if (/\brel\s*=\s*(?:"[^"]*\bnofollow\b[^"]*"|'[^']*\bnofollow\b[^']*'|nofollow\b)/i.test(attributes)) {
      continue;
    }
    const href = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attributes);
    const value = href ? (href[1] ?? href[2] ?? href[3] ?? "").trim() : "";
    if (!value || value.startsWith("#")) continue;
    try {
      links.push(new URL(decodeEntities(value), base));
    } catch {
      // Not a URL: nothing to follow.
    }
  }
  return links;
}

/** What `<meta name="robots">` asks of the page: not to index it, not to follow its links. */
function metaRobots(html: string): { noindex: boolean; nofollow: boolean } {
  const head = html.slice(0, 64 * 1024);
  let noindex = false;
  let nofollow = false;
  for (const match of head.matchAll(/<meta\s[^>]*>/gi)) {
    const tag = match[0];
    if (!/name\s*=\s*["']?(?:robots|lectern)["'\s>]/i.test(tag)) continue;
    const content = /content\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
    const words = (content?.[1] ?? content?.[2] ?? "").toLowerCase();
    if (/\b(noindex|none)\b/.test(words)) noindex = true;
    if (/\b(nofollow|none)\b/.test(words)) nofollow = true;
  }
  return { noindex, nofollow };
}

/**
 * The same origin as the start page; a site started at `http://` that links to its own `https://` pages (the
 * usual upgrade, default ports) counts as the same site.
 */
export function sameSite(url: URL, start: URL): boolean {
  if (url.origin === start.origin) return true;
  return start.protocol === "http:" && url.protocol === "https:" && url.hostname === start.hostname &&
    start.port === "" && url.port === "";
}

const isHtml = (contentType: string | null) =>
  /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType ?? "");

type Robots = {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
};
// The package's types declare a module without a call signature; its CommonJS export is the parser function.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => Robots;

/**
 * The site's robots.txt (RFC 9309): rules for "Lectern" or `*`. Missing (4xx) allows everything; a server error
 * means the site is not crawled.
 */
async function readRobots(start: URL, context: ConnectorContext, deps: WebsiteDeps): Promise<Robots | null> {
  const robotsUrl = new URL("/robots.txt", start.origin).href;
  let response: Response;
  try {
    response = await context.fetch(robotsUrl, {
      headers: { "User-Agent": USER_AGENT, Accept: "text/plain,*/*;q=0.5" },
      signal: context.signal,
    });
  } catch (error) {
    context.signal.throwIfAborted();
    throw new ConnectorError(`Could not reach ${start.origin}: ${reasonOf(error)}.`);
  }
  if (response.status >= 500) {
    await response.body?.cancel().catch(() => {});
    throw new ConnectorError(
      `${start.origin}/robots.txt answered ${response.status}, so the site cannot be crawled now. Try again later.`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  let text: string;
  try {
    text = new TextDecoder().decode(
      await readLinkBody(response, Math.min(deps.config.maxUploadBytes, 512 * 1024), robotsUrl),
    );
  } catch {
    // RFC 9309 lets a crawler stop reading a large file; an unreadable one is treated as missing.
    return null;
  }
  return robotsParser(robotsUrl, text);
}

/**
 * The website depth crawl: from the start URL, pages of the same origin (scheme, host and port) up to `depth`
 * links away and at most `maxLinks` pages, each read as the link upload reads a link (Readability to Markdown in
 * the parse worker). robots.txt is honoured (its rules and its Crawl-delay, up to MAX_CRAWL_DELAY_MS), with a
 * politeness delay between requests; each URL is fetched once, so loops end, and a page with the same text as
 * an earlier one is skipped. The start page failing fails the import; any other page is a skip with its reason.
 */
export function createWebsiteSource(deps: WebsiteDeps): ConnectorSource<WebsiteOptions> {
  return {
    id: "website-depth",
    folder: websiteFolder,
    documents: (options, context) => crawl(deps, options, context),
    refetch: ({ url }, context) => refetchPage(deps, url, context),
  };
}

/**
 * One crawled page again (live sync): the site's robots.txt is read again and must still allow it, and the
 * page is read as the crawl read it.
 */
async function refetchPage(
  deps: WebsiteDeps,
  link: string,
  context: ConnectorContext,
): Promise<ConnectorDocument | ConnectorSkip> {
  const url = new URL(link);
  const robots = await readRobots(url, context, deps);
  if (robots?.isAllowed(`${url.origin}${url.pathname}${url.search}`, CRAWLER_NAME) === false) {
    throw new ConnectorError(`The robots.txt of ${url.origin} no longer allows fetching ${linkText(url)}.`);
  }
  const page = await fetchPage(deps, url, context).catch((error) => {
    context.signal.throwIfAborted();
    throw new ConnectorError(startFailure(linkText(url), error));
  });
  const read = await linkDocumentFromBytes(
    { config: deps.config, log: context.log },
    page.url,
    page.contentType,
    page.bytes,
  ).catch((error) => {
    throw new ConnectorError(`${reasonOf(error)}.`);
  });
  const text = read.parsed.text;
  return {
    key: link,
    title: read.pageTitle?.trim() || read.title,
    text,
    url: link,
    version: textVersion(text),
  };
}

async function* crawl(
  deps: WebsiteDeps,
  options: WebsiteOptions,
  context: ConnectorContext,
): AsyncGenerator<ConnectorDocument | ConnectorSkip> {
  const sleep = deps.sleep ?? pause;
  // The site: the start page's origin, or the one its redirects end at (its robots.txt read again then).
  let start = new URL(options.url);
  start.hash = "";
  let robots = await readRobots(start, context, deps);
  const delayOf = (rules: Robots | null) =>
    Math.max(
      deps.delayMs ?? POLITENESS_DELAY_MS,
      Math.min((rules?.getCrawlDelay(CRAWLER_NAME) ?? 0) * 1000, deps.maxCrawlDelayMs ?? MAX_CRAWL_DELAY_MS),
    );
  let delay = delayOf(robots);
  // Judged as a URL of the start page's scheme: robots-parser answers nothing for another origin.
  const allowed = (url: URL) =>
    robots?.isAllowed(`${start.origin}${url.pathname}${url.search}`, CRAWLER_NAME) !== false;
  if (!allowed(start)) {
    throw new ConnectorError(`The robots.txt of ${start.origin} does not allow crawling ${linkText(start)}.`);
  }

  const queue: { url: URL; depth: number }[] = [{ url: start, depth: 0 }];
  const seen = new Set([pageKey(start)]);
  const texts = new Map<string, string>();
  // A site with endless generated links cannot fill memory: the queue holds what the limit could still use.
  const queueLimit = options.maxLinks * 20 + 100;
  let fetched = 0;
  let documents = 0;

  for (let index = 0; index < queue.length; index++) {
    const { url, depth } = queue[index];
    const link = linkText(url);
    if (fetched >= options.maxLinks) {
      yield { skip: link, why: pageLimitReason(options.maxLinks) };
      continue;
    }
    await sleep(delay, context.signal);
    context.signal.throwIfAborted();
    fetched++;
    const first = index === 0;
    const page = await fetchPage(deps, url, context).catch((error) => {
      context.signal.throwIfAborted();
      if (first) throw new ConnectorError(startFailure(link, error));
      return { failed: pageFailure(error) };
    });
    if ("failed" in page) {
      yield { skip: link, why: page.failed };
      continue;
    }
    if (first && page.url.origin !== start.origin && !sameSite(page.url, start)) {
      // The start page redirected to another site (a new host name): that site is the one crawled.
      start = new URL(page.url.href);
      robots = await readRobots(start, context, deps);
      delay = delayOf(robots);
      if (!allowed(start)) {
        throw new ConnectorError(
          `The robots.txt of ${start.origin} does not allow crawling ${linkText(start)}.`,
        );
      }
    }
    // A page reached through a redirect is known by both addresses: a link to either is not followed again.
    seen.add(pageKey(page.url));

    const html = isHtml(page.contentType) ? new TextDecoder().decode(page.bytes) : null;
    const meta = html ? metaRobots(html) : { noindex: false, nofollow: false };
    if (html && depth < options.depth && !meta.nofollow) {
      for (const next of pageLinks(html, page.url)) {
        if (!sameSite(next, start)) {
          continue;
        }
        const key = pageKey(next);
        if (seen.has(key) || queue.length >= queueLimit) continue;
        seen.add(key);
        next.hash = "";
        if (!allowed(next)) {
          yield { skip: linkText(next), why: "The site's robots.txt does not allow it." };
          continue;
        }
        queue.push({ url: next, depth: depth + 1 });
      }
    }
    if (meta.noindex) {
      yield { skip: link, why: "The page asks not to be indexed (noindex)." };
      continue;
    }

    let document: ConnectorDocument;
    try {
      const read = await linkDocumentFromBytes(
        { config: deps.config, log: context.log },
        page.url,
        page.contentType,
        page.bytes,
      );
      const text = read.parsed.text;
      const version = textVersion(text);
      const same = texts.get(version);
      if (same) {
        yield { skip: link, why: `The same text as ${same}.` };
        continue;
      }
      texts.set(version, link);
      document = {
        key: link,
        title: read.pageTitle?.trim() || read.title,
        text,
        url: link,
        version,
        metadata: {
          docAuthor: read.parsed.docAuthor && read.parsed.docAuthor !== "Unknown"
            ? read.parsed.docAuthor
            : undefined,
          description: read.parsed.description && read.parsed.description !== "Unknown"
            ? read.parsed.description
            : undefined,
        },
      };
    } catch (error) {
      if (first) throw new ConnectorError(reasonOf(error) + ".");
      yield { skip: link, why: `${reasonOf(error)}.` };
      continue;
    }
    documents++;
    yield document;
  }
  if (documents === 0) throw new ConnectorError(`No pages with text were found at ${linkText(start)}.`);
}

async function fetchPage(deps: WebsiteDeps, url: URL, context: ConnectorContext) {
  const response = await context.fetch(url.href, {
    headers: {
      "User-Agent": USER_AGENT,
      Accept: "text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.8",
    },
    signal: context.signal,
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new StatusError(response.status, response.statusText);
  }
  const bytes = await readLinkBody(response, deps.config.maxUploadBytes, linkText(url));
  // Where the page is after its redirects: its relative links resolve against it.
  const final = new URL(finalUrlOf(response, url.href));
  final.hash = "";
  return { bytes, contentType: response.headers.get("content-type"), url: final };
}

class StatusError extends Error {
  constructor(readonly status: number, statusText: string) {
    super(`the server answered ${status}${statusText ? ` ${statusText}` : ""}`);
  }
}

function startFailure(link: string, error: unknown): string {
  if (error instanceof AppError && error.code === "too_large") return error.message;
  return `Could not reach ${link}: ${reasonOf(error)}.`;
}

function pageFailure(error: unknown): string {
  const reason = reasonOf(error);
  return error instanceof StatusError || !(error instanceof AppError)
    ? `Could not fetch it: ${reason}.`
    : `${reason}.`;
}
