import assert from "node:assert/strict";
import { loadConfig } from "../../config.ts";
import { WebsiteOptions } from "../../../shared/api/connectors_sources.ts";
import { collect, testNetwork } from "../../testing/connector_context.ts";
import { articlePage, startFakeWebsite } from "../../testing/fake_website.ts";
import { type ConnectorDocument, ConnectorError, type ConnectorSkip } from "../source.ts";
import { createWebsiteSource, pageLimitReason, pageLinks, sameSite, websiteFolder } from "./website.ts";

const SITE = "https://docs.example.test";

function crawler() {
  const waits: number[] = [];
  const source = createWebsiteSource({
    config: loadConfig({}),
    delayMs: 0,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
  return { source, waits };
}

async function crawl(site: { baseURL: string }, body: Record<string, unknown>) {
  const network = testNetwork({ "docs.example.test": site.baseURL });
  const { source, waits } = crawler();
  const items = await collect(source.documents(WebsiteOptions.parse(body), network.context));
  const documents = items.filter((item): item is ConnectorDocument => "key" in item);
  const skips = Object.fromEntries(
    items.filter((item): item is ConnectorSkip => "skip" in item).map((item) => [item.skip, item.why]),
  );
  return { documents, skips, waits, requests: network.requests };
}

async function crawlFailure(network: ReturnType<typeof testNetwork>, body: Record<string, unknown>) {
  const { source } = crawler();
  const error = await collect(source.documents(WebsiteOptions.parse(body), network.context)).then(
    () => assert.fail("the crawl should have failed"),
    (caught) => caught,
  );
  assert.ok(error instanceof ConnectorError, String(error));
  return error.message;
}

Deno.test("WebsiteOptions: defaults, numbers from text, and sentences for bad values", () => {
  assert.deepEqual(WebsiteOptions.parse({ url: "docs.example.test/guide" }), {
    url: "https://docs.example.test/guide",
    depth: 1,
    maxLinks: 20,
  });
  assert.deepEqual(WebsiteOptions.parse({ url: "http://docs.example.test", depth: "3", maxLinks: 7 }), {
    url: "http://docs.example.test/",
    depth: 3,
    maxLinks: 7,
  });
  const problems: [Record<string, unknown>, string][] = [
    [{}, "The website URL must be an http or https address."],
    [{ url: "ftp://docs.example.test" }, "The website URL must be an http or https address."],
    [{ url: SITE, depth: 0 }, "The crawl depth must be a whole number from 1 to 5."],
    [{ url: SITE, depth: 6 }, "The crawl depth must be a whole number from 1 to 5."],
    [{ url: SITE, depth: 1.5 }, "The crawl depth must be a whole number from 1 to 5."],
    [{ url: SITE, maxLinks: 0 }, "The maximum pages must be a whole number from 1 to 500."],
    [{ url: SITE, maxLinks: "many" }, "The maximum pages must be a whole number from 1 to 500."],
  ];
  for (const [body, message] of problems) {
    const parsed = WebsiteOptions.safeParse(body);
    assert.equal(parsed.error?.issues[0].message, message, JSON.stringify(body));
  }
  assert.equal(websiteFolder({ url: "https://www.Docs.Example.test:8443/guide" }), "docs-example-test");
});

Deno.test("sameSite: the start page's origin, and its https form when started at http", () => {
  const start = new URL("http://docs.example.test/");
  assert.ok(sameSite(new URL("http://docs.example.test/a"), start));
  assert.ok(sameSite(new URL("https://docs.example.test/a"), start));
  assert.ok(!sameSite(new URL("https://docs.example.test:8443/a"), start));
  assert.ok(!sameSite(new URL("http://blog.example.test/a"), start));
  assert.ok(!sameSite(new URL("http://docs.example.test/a"), new URL("https://docs.example.test/")));
});

Deno.test("pageLinks: <base href>, quotes, entities, fragments and nofollow", () => {
  const page = new URL("https://docs.example.test/guide/intro");
  const links = pageLinks(
    `<base href="/v2/"><a href="a">A</a><a class=x href='b?x=1&amp;y=2'>B</a><a href=c>C</a>` +
      `<a href="#top">top</a><a rel="nofollow" href="/hidden">H</a><a href="https://elsewhere.test/">E</a>`,
    page,
  );
  assert.deepEqual(links.map((url) => url.href), [
    "https://docs.example.test/v2/a",
    "https://docs.example.test/v2/b?x=1&y=2",
    "https://docs.example.test/v2/c",
    "https://elsewhere.test/",
  ]);
});

Deno.test("website: depth 1 reads the start page and the same-origin pages it links to, as the link upload does", async () => {
  await using site = startFakeWebsite();
  const { documents, skips, waits, requests } = await crawl(site, {
    url: `${SITE}/`,
    depth: 1,
    maxLinks: 50,
  });

  assert.deepEqual(documents.map((document) => document.title), [
    "Harbour guide home",
    "Reading a tide table",
    "About the harbour office",
    "docs.example.test_notes.txt",
  ]);
  const home = documents[0];
  assert.equal(home.key, SITE);
  assert.equal(home.url, SITE);
  // Readability to Markdown: the article's paragraphs, without the navigation and the footer.
  assert.match(
    home.text,
    /^Harbour guide home, part 1: harbour masters publish tide tables.*\n\nHarbour guide home, part 2/,
  );
  assert.doesNotMatch(home.text, /Harbour docs|mailto|\/private/);
  assert.equal(documents[3].text, "Notes on the tide gauge.\n\nIt is read every hour.");

  assert.deepEqual(skips, {
    [`${SITE}/private/keys`]: "The site's robots.txt does not allow it.",
    [`${SITE}/home`]: `The same text as ${SITE}.`,
    [`${SITE}/missing`]: "Could not fetch it: the server answered 404 Not Found.",
    [`${SITE}/redirect-private`]:
      "10.0.0.7 points to a private address (10.0.0.7); Lectern does not fetch from there.",
    [`${SITE}/logo.png`]: `${SITE}/logo.png serves image/png, which Lectern cannot read.`,
    [`${SITE}/quiet`]: "The page asks not to be indexed (noindex).",
  });
  // robots.txt first; nothing disallowed, off-site, nofollow or beyond the depth was fetched.
  assert.equal(site.seen[0], "/robots.txt");
  for (const path of ["/private/keys", "/nofollowed", "/guide/deep", "/quiet/more"]) {
    assert.ok(!site.seen.includes(path), `${path} was fetched`);
  }
  assert.ok(requests.every((url) => new URL(url).hostname === "docs.example.test"));
  // Each URL once, though the home page links to /guide twice and /guide links back.
  assert.equal(site.seen.filter((path) => path === "/guide").length, 1);
  assert.equal(site.seen.filter((path) => path === "/").length, 1);
  // robots.txt's Crawl-delay (2 s) is waited before every page fetched.
  assert.equal(waits.length, site.seen.length - 1);
  assert.ok(waits.every((ms) => ms === 2000), JSON.stringify(waits));
});

Deno.test("website: loops end, deeper pages follow the depth, and the page limit is reported per link left", async () => {
  await using site = startFakeWebsite();
  const deep = await crawl(site, { url: SITE, depth: 5, maxLinks: 50 });
  assert.deepEqual(
    deep.documents.map((document) => document.title).filter((title) => /tide|Tidal/i.test(title)),
    ["Reading a tide table", "Spring and neap tides", "Tidal streams"],
  );
  for (const path of ["/", "/guide", "/guide/deep", "/guide/deeper"]) {
    assert.equal(site.seen.filter((seen) => seen === path).length, 1, path);
  }
  // The noindex page's links are not followed either (nofollow).
  assert.ok(!site.seen.includes("/quiet/more"));

  site.seen.length = 0;
  const limited = await crawl(site, { url: SITE, depth: 3, maxLinks: 3 });
  assert.deepEqual(limited.documents.map((document) => document.title), [
    "Harbour guide home",
    "Reading a tide table",
    "About the harbour office",
  ]);
  assert.deepEqual(site.seen, ["/robots.txt", "/", "/guide", "/about"]);
  const left = Object.entries(limited.skips).filter(([, why]) => why === pageLimitReason(3)).map(([link]) =>
    link
  );
  assert.deepEqual(left, [
    `${SITE}/home`,
    `${SITE}/missing`,
    `${SITE}/redirect-private`,
    `${SITE}/notes.txt`,
    `${SITE}/logo.png`,
    `${SITE}/quiet`,
    `${SITE}/guide/deep`,
  ]);
  assert.equal(pageLimitReason(1), "The crawl stopped at its limit of 1 page.");
});

Deno.test("website: without robots.txt everything on the site may be crawled", async () => {
  await using site = startFakeWebsite({ robots: null });
  const { documents, waits } = await crawl(site, { url: SITE, depth: 1, maxLinks: 50 });
  assert.ok(documents.some((document) => document.title === "Where the keys are"));
  assert.ok(waits.every((ms) => ms === 0));
});

Deno.test("website: an unreachable site, a missing start page, a closed robots.txt: sentences", async () => {
  await using site = startFakeWebsite({
    robots: "User-agent: Lectern\nDisallow: /staff/\n",
    pages: { "/empty": "<html><body> </body></html>", "/staff/list": articlePage("Staff", []) },
  });
  const network = testNetwork({ "docs.example.test": site.baseURL });
  assert.equal(
    await crawlFailure(network, { url: `${SITE}/nothing` }),
    `Could not reach ${SITE}/nothing: the server answered 404 Not Found.`,
  );
  assert.equal(
    await crawlFailure(network, { url: `${SITE}/staff/list` }),
    `The robots.txt of ${SITE} does not allow crawling ${SITE}/staff/list.`,
  );
  assert.equal(
    await crawlFailure(network, { url: `${SITE}/empty` }),
    `No URL content found at ${SITE}/empty.`,
  );
  assert.equal(
    await crawlFailure(testNetwork({}), { url: "https://nowhere.example.test/" }),
    "Could not reach https://nowhere.example.test: Cannot resolve the host nowhere.example.test.",
  );
  assert.equal(
    await crawlFailure(testNetwork({}, { privateHosts: ["intranet.example.test"] }), {
      url: "https://intranet.example.test/",
    }),
    "Could not reach https://intranet.example.test: intranet.example.test points to a private address (10.0.0.5); Lectern does not fetch from there.",
  );

  await using down = startFakeWebsite({ robots: 503 });
  assert.equal(
    await crawlFailure(testNetwork({ "docs.example.test": down.baseURL }), { url: SITE }),
    `${SITE}/robots.txt answered 503, so the site cannot be crawled now. Try again later.`,
  );
  assert.deepEqual(down.seen, ["/robots.txt"]);
});

Deno.test("a start page that redirects: its relative links resolve against the address it ended at", async () => {
  await using site = startFakeWebsite({
    robots: null,
    redirects: { "/start": "/docs/", "/moved": "https://new.example.test/docs/" },
    pages: {
      "/docs/": articlePage("Docs home", ["guide", "./tables?year=2026", "/docs/"]),
      "/docs/guide": articlePage("Docs guide", []),
      "/docs/tables": articlePage("Docs tables", []),
      // Where the links would lead if they were resolved against the address asked for.
      "/guide": articlePage("The wrong guide", []),
      "/tables": articlePage("The wrong tables", []),
    },
  });
  const { documents, requests } = await crawl(site, { url: `${SITE}/start`, depth: 1, maxLinks: 10 });
  assert.deepEqual(documents.map((document) => document.title).sort(), [
    "Docs guide",
    "Docs home",
    "Docs tables",
  ]);
  const paths = requests.map((request) => new URL(request).pathname);
  assert.ok(!paths.includes("/guide") && !paths.includes("/tables"), paths.join(", "));
  // The redirect's target is not fetched a second time through its own link.
  assert.equal(paths.filter((path) => path === "/docs/").length, 1, paths.join(", "));

  // Redirected to another host: that site is crawled, its robots.txt read.
  const network = testNetwork({ "docs.example.test": site.baseURL, "new.example.test": site.baseURL });
  const { source } = crawler();
  const items = await collect(
    source.documents(WebsiteOptions.parse({ url: `${SITE}/moved`, depth: 1, maxLinks: 10 }), network.context),
  );
  const moved = items.filter((item): item is ConnectorDocument => "key" in item);
  assert.deepEqual(moved.map((document) => document.title).sort(), [
    "Docs guide",
    "Docs home",
    "Docs tables",
  ]);
  assert.ok(network.requests.includes("https://new.example.test/robots.txt"));
  assert.ok(network.requests.includes("https://new.example.test/docs/guide"));
});
