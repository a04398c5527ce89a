export interface FakeWebsite {
  /** `http://127.0.0.1:<port>`: plays a site such as `https://docs.example.test`. */
  baseURL: string;
  /** The paths (with query) requested, in order. */
  seen: string[];
  /** Serves `body` (HTML) at `path` from now on. */
  setPage(path: string, body: string): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A page of readable text (enough for Readability to take it as the article). */
export function articlePage(title: string, links: string[], extraHead = ""): string {
  const paragraphs = Array.from(
    { length: 4 },
    (_, index) =>
      `<p>${title}, part ${
        index + 1
      }: harbour masters publish tide tables so that sailors know when the water is deep enough to leave the quay and when it is safe to come back in again.</p>`,
  ).join("\n");
  return `<!doctype html><html><head><title>${title}</title>${extraHead}</head><body>
<nav>${links.map((href) => `<a href="${href}">${href}</a>`).join(" | ")}</nav>
<article><h1>${title}</h1>
${paragraphs}
</article><footer>Harbour docs</footer></body></html>`;
}

export const DEFAULT_ROBOTS = `# Harbour docs
User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: GreedyBot
Disallow: /
`;

/**
 * A small website on loopback with what a crawl meets: robots.txt (a disallowed folder, a Crawl-delay), links
 * in loops (home ⇄ guide), duplicates (a fragment, the same page under two URLs), an off-site link, a
 * `rel="nofollow"` link, a `noindex` page, a broken link (404), a redirect to a private address, a PDF-less
 * plain-text file and an image. `robots` replaces robots.txt (null: 404; a number: that status).
 */
export function startFakeWebsite(
  options: {
    robots?: string | null | number;
    pages?: Record<string, string>;
    /** Paths answered with a 302 to another address (relative or absolute). */
    redirects?: Record<string, string>;
  } = {},
): FakeWebsite {
  const seen: string[] = [];
  const robots = options.robots === undefined ? DEFAULT_ROBOTS : options.robots;
  const html = (body: string) =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  const home = articlePage("Harbour guide home", [
    "/guide",
    "/guide#tides",
    "/about",
    "/home",
    "/private/keys",
    "https://elsewhere.example.test/offsite",
    "mailto:harbour@example.test",
    "/missing",
    "/redirect-private",
    "/notes.txt",
    "/logo.png",
    "/quiet",
  ]).replace("</nav>", `<a href="/nofollowed" rel="nofollow">hidden</a></nav>`);
  const pages: Record<string, () => Response> = {
    "/": () => html(home),
    // The same page under another address: same text, skipped as a duplicate.
    "/home": () => html(home),
    "/guide": () => html(articlePage("Reading a tide table", ["/", "/guide/deep", "/guide"])),
    "/guide/deep": () => html(articlePage("Spring and neap tides", ["/guide", "/guide/deeper"])),
    "/guide/deeper": () => html(articlePage("Tidal streams", ["/"])),
    "/about": () => html(articlePage("About the harbour office", ["/"])),
    "/quiet": () =>
      html(articlePage("Staff notes", ["/quiet/more"], `<meta name="robots" content="noindex, nofollow">`)),
    "/quiet/more": () => html(articlePage("Never linked but by a nofollow page", [])),
    "/nofollowed": () => html(articlePage("Only a nofollow link leads here", [])),
    "/private/keys": () => html(articlePage("Where the keys are", [])),
    "/notes.txt": () =>
      new Response("Notes on the tide gauge.\n\nIt is read every hour.", {
        headers: { "content-type": "text/plain" },
      }),
    "/logo.png": () =>
      new Response(new Uint8Array([137, 80, 78, 71, 13, 10]), { headers: { "content-type": "image/png" } }),
    "/redirect-private": () =>
      new Response(null, { status: 302, headers: { location: "http://10.0.0.7/secret" } }),
    ...Object.fromEntries(
      Object.entries(options.pages ?? {}).map(([path, body]) => [path, () => html(body)]),
    ),
    ...Object.fromEntries(
      Object.entries(options.redirects ?? {}).map((
        [path, location],
      ) => [path, () => new Response(null, { status: 302, headers: { location } })]),
    ),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push(`${url.pathname}${url.search}`);
    if (url.pathname === "/robots.txt") {
      if (robots === null) return new Response("Not Found", { status: 404 });
      if (typeof robots === "number") return new Response("Unavailable", { status: robots });
      return new Response(robots, { headers: { "content-type": "text/plain" } });
    }
    const page = pages[url.pathname];
    return page ? page() : new Response("Not Found", { status: 404, statusText: "Not Found" });
  });
  const close = async () => await server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}`,
    seen,
    setPage: (path, body) => pages[path] = () => html(body),
    close,
    [Symbol.asyncDispose]: close,
  };
}
