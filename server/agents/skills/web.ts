// The web skills: scrape a page (web-scraping) and search the web (web-browsing), both through the URL guard.
import { fetchLinkDocument } from "../../documents/links.ts";
import { guardedFetch } from "../../http/url_guard.ts";
import { searchProvider } from "../settings.ts";
import type { AgentTool } from "../loop.ts";
import { type SkillContext, textArg } from "./context.ts";

/** The most characters of a page the model reads. */
const PAGE_CHARS = 12_000;

export function scrapeTool(context: SkillContext): AgentTool {
  return {
    name: "scrape-web-page",
    description: "Reads a web page (or a document at a link) and returns its text.",
    parameters: {
      type: "object",
      properties: { url: { type: "string", description: "The page's address (https://…)." } },
      required: ["url"],
    },
    describe: (args) => `Reading ${String(args.url ?? "a web page")}.`,
    async run(args) {
      const url = textArg(args, "url");
      const { deps } = context;
      // fetchLinkDocument goes through the one URL guard: private, loopback and metadata addresses refused.
      const found = await fetchLinkDocument(
        { config: deps.config, log: deps.log, linkFetch: deps.linkFetch },
        url,
      );
      const text = found.parsed.text;
      return {
        text: text.length > PAGE_CHARS ? `${text.slice(0, PAGE_CHARS)}\n[cut short]` : text,
        sources: [{
          title: found.pageTitle ?? found.title,
          url: found.url,
          chunkSource: `link://${found.url}`,
          text: text.slice(0, 1000),
        }],
      };
    },
  };
}

interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

const SEARCH_TIMEOUT_MS = 20_000;

async function jsonOf(response: Response, name: string): Promise<Record<string, unknown>> {
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`${name} answered ${response.status}.`);
  }
  return await response.json() as Record<string, unknown>;
}

/** The configured provider's results for `query`. */
async function search(context: SkillContext, query: string, signal: AbortSignal): Promise<SearchHit[]> {
  const { deps } = context;
  const provider = searchProvider(deps);
  const timed = AbortSignal.any([signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]);
  const guard = deps.linkFetch ?? {};
  if (provider === "searxng-engine") {
    const base = deps.settings.value("AgentSearXNGApiUrl")!;
    const url = new URL(`${base.replace(/\/+$/, "")}/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    // The admin's own SearXNG may be on the local network.
    const body = await jsonOf(
      await guardedFetch(url.href, { signal: timed }, { ...guard, allowPrivate: true }),
      "SearXNG",
    );
    return ((body.results as Record<string, string>[] | undefined) ?? []).map((row) => ({
      title: row.title ?? "",
      url: row.url ?? "",
      snippet: row.content ?? "",
    }));
  }
  if (provider === "tavily-search") {
    const body = await jsonOf(
      await guardedFetch("https://api.tavily.com/search", {
        method: "POST",
        signal: timed,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ api_key: deps.settings.value("AgentTavilyApiKey"), query }),
      }, guard),
      "Tavily",
    );
    return ((body.results as Record<string, string>[] | undefined) ?? []).map((row) => ({
      title: row.title ?? "",
      url: row.url ?? "",
      snippet: row.content ?? "",
    }));
  }
  if (provider === "brave-search") {
    const url = new URL("https://api.search.brave.com/res/v1/web/search");
    url.searchParams.set("q", query);
    const body = await jsonOf(
      await guardedFetch(url.href, {
        signal: timed,
        headers: {
          Accept: "application/json",
          "X-Subscription-Token": deps.settings.value("AgentBraveApiKey") ?? "",
        },
      }, guard),
      "Brave Search",
    );
    const web = body.web as { results?: Record<string, string>[] } | undefined;
    return (web?.results ?? []).map((row) => ({
      title: row.title ?? "",
      url: row.url ?? "",
      snippet: row.description ?? "",
    }));
  }
  throw new Error("Web search is not configured.");
}

export function webSearchTool(context: SkillContext): AgentTool {
  return {
    name: "web-search",
    description: "Searches the web and returns the top results with their addresses.",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "What to search for." } },
      required: ["query"],
    },
    describe: (args) => `Searching the web for "${String(args.query ?? "")}".`,
    async run(args, signal) {
      const hits = (await search(context, textArg(args, "query"), signal)).slice(0, 8);
      if (hits.length === 0) return "The search found nothing.";
      return hits.map((hit, index) => `[${index + 1}] ${hit.title}\n${hit.url}\n${hit.snippet}`).join("\n\n");
    },
  };
}
