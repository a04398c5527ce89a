import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documents, users, workspaceUsers } from "../../db/schema.ts";
import { UploadAnswer } from "../../shared/api/documents.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { fetchLinkDocument, linkSlug, normalizeLink } from "./links.ts";

const ARTICLE = `<!doctype html><html><head><title>Tide tables explained</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Tide tables explained</h1>
${
  Array.from({ length: 6 }, (_, index) =>
    `<p>Paragraph ${
      index + 1
    }: a tide table lists the times and heights of high and low water for a harbour, day by day, so that a sailor can plan when to leave and when to come back safely.</p>`)
    .join("\n")
}
</article><footer>Copyright</footer></body></html>`;

/** A web server on loopback that stands for the internet; it counts what reaches it. */
function startSite(options: { pdf?: Uint8Array; big?: number } = {}) {
  const seen: string[] = [];
  let article = ARTICLE;
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (
      request,
    ): Response => {
      const { pathname } = new URL(request.url);
      seen.push(pathname);
      switch (pathname) {
        case "/page":
          return new Response(article, { headers: { "content-type": "text/html; charset=utf-8" } });
        case "/files/report.pdf":
          return new Response(options.pdf as Uint8Array<ArrayBuffer>, {
            headers: { "content-type": "application/pdf" },
          });
        case "/notes.md":
          return new Response("# Notes\n\nPlain words.", {
            headers: { "content-type": "application/octet-stream" },
          });
        case "/empty":
          return new Response("", { headers: { "content-type": "text/html" } });
        case "/blank":
          return new Response("<html><body>  </body></html>", { headers: { "content-type": "text/html" } });
        case "/image":
          return new Response(new Uint8Array([137, 80, 78, 71]), {
            headers: { "content-type": "image/png" },
          });
        case "/big":
          return new Response("a".repeat(options.big ?? 0), { headers: { "content-type": "text/plain" } });
        case "/redirect-private":
          return new Response(null, { status: 302, headers: { location: "http://10.0.0.7/secret" } });
        case "/redirect-loopback":
          return new Response(null, {
            status: 302,
            headers: { location: `http://127.0.0.1:${port()}/page` },
          });
        case "/redirect-ok":
          return new Response(null, { status: 301, headers: { location: "/page" } });
        default:
          return new Response("Not here", { status: 404, statusText: "Not Found" });
      }
    },
  );
  const port = (): number => server.addr.port;
  return {
    seen,
    port,
    setArticle(html: string) {
      article = html;
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

type Site = ReturnType<typeof startSite>;

/** A resolver for made-up names, and a fetch that takes the public ones to the loopback site. */
function network(site: Site) {
  const names: Record<string, string[]> = {
    "docs.example.test": ["93.184.215.14"],
    "down.example.test": ["93.184.215.15"],
    "loopback.example.test": ["127.0.0.1"],
    "mixed.example.test": ["93.184.215.14", "10.1.2.3"],
    "metadata.example.test": ["169.254.169.254"],
    "mapped.example.test": ["::ffff:192.168.0.10"],
  };
  return {
    resolve: (hostname: string) => Promise.resolve(names[hostname] ?? []),
    fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname === "down.example.test") return Promise.reject(new TypeError("Connection refused"));
      if (url.hostname !== "docs.example.test") {
        return Promise.reject(new Error(`The guard let ${url.href} through to the network`));
      }
      return fetch(`http://127.0.0.1:${site.port()}${url.pathname}${url.search}`, init);
    }) as typeof fetch,
  };
}

async function workspaceOf(app: TestApp): Promise<string> {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Links" },
  });
  return created.body.workspace.slug;
}

const uploadLink = (app: TestApp, slug: string, link: unknown) =>
  app.json(`/api/workspace/${slug}/upload-link`, { json: { link } });

Deno.test("normalizeLink and linkSlug: https added, only http(s), slugs as the reference names them", () => {
  assert.equal(normalizeLink("example.com/docs").href, "https://example.com/docs");
  assert.equal(normalizeLink("example.com:8080/a").href, "https://example.com:8080/a");
  assert.equal(normalizeLink("  http://example.com  ").href, "http://example.com/");
  for (
    const bad of ["", "file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "http://", "a b"]
  ) {
    assert.throws(() => normalizeLink(bad), /Not a valid URL\./, bad);
  }
  assert.equal(linkSlug(new URL("https://example.com/docs/page/")), "example.com_docs_page");
  assert.equal(linkSlug(new URL("https://example.com")), "example.com");
  assert.equal(linkSlug(new URL("https://example.com/a%20b/../c?x=1")), "example.com_c");
});

Deno.test("upload-link refuses every private, loopback, link-local and metadata address, and fetches nothing", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  app.deps.linkFetch = network(site);
  const slug = await workspaceOf(app);
  const port = site.port();
  const cases: [string, RegExp][] = [
    [`http://127.0.0.1:${port}/page`, /^127\.0\.0\.1 points to a loopback address \(127\.0\.0\.1\)/],
    [`localhost:${port}/page`, /^localhost points to a loopback address/],
    [`http://[::1]:${port}/page`, /^::1 points to a loopback address/],
    [`http://0.0.0.0:${port}/page`, /^0\.0\.0\.0 points to an unspecified address/],
    [`http://2130706433:${port}/page`, /^127\.0\.0\.1 points to a loopback address/],
    ["http://10.0.0.5/", /^10\.0\.0\.5 points to a private address \(10\.0\.0\.5\)/],
    ["http://172.16.3.4/", /^172\.16\.3\.4 points to a private address/],
    ["https://192.168.1.1/admin", /^192\.168\.1\.1 points to a private address/],
    ["http://169.254.169.254/latest/meta-data/", /^169\.254\.169\.254 points to a link-local address/],
    ["http://[fd00:ec2::254]/latest/meta-data/", /^fd00:ec2::254 points to a link-local address/],
    [`http://[::ffff:127.0.0.1]:${port}/page`, /^::ffff:7f00:1 points to a loopback address/],
    ["http://[::ffff:10.0.0.1]/", /^::ffff:a00:1 points to a private address/],
    [
      "http://loopback.example.test/page",
      /^loopback\.example\.test points to a loopback address \(127\.0\.0\.1\)/,
    ],
    ["http://mixed.example.test/page", /^mixed\.example\.test points to a private address \(10\.1\.2\.3\)/],
    [
      "http://metadata.example.test/",
      /^metadata\.example\.test points to a link-local address \(169\.254\.169\.254\)/,
    ],
    [
      "http://mapped.example.test/",
      /^mapped\.example\.test points to a private address \(::ffff:192\.168\.0\.10\)/,
    ],
    ["http://docs.example.test/redirect-private", /^10\.0\.0\.7 points to a private address \(10\.0\.0\.7\)/],
    ["http://docs.example.test/redirect-loopback", /^127\.0\.0\.1 points to a loopback address/],
    ["http://nowhere.example.test/", /^Cannot resolve the host nowhere\.example\.test\./],
  ];
  for (const [link, expected] of cases) {
    const answer = await uploadLink(app, slug, link);
    assert.equal(answer.status, 400, `${link}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.success, false);
    assert.match(String(answer.body.error), expected, link);
  }
  for (const link of ["file:///etc/passwd", "gopher://127.0.0.1/", "javascript:alert(1)", "", 42]) {
    const answer = await uploadLink(app, slug, link);
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { success: false, error: "Not a valid URL." }, String(link));
  }
  assert.deepEqual(
    site.seen,
    ["/redirect-private", "/redirect-loopback"],
    "only the public first hops of the redirects reached a server",
  );
  assert.equal((await app.deps.db.select().from(documents)).length, 0);
});

Deno.test("upload-link turns a page into readable Markdown with the link fields of docs/api-compat.md#link-documents", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  app.deps.linkFetch = network(site);
  const slug = await workspaceOf(app);

  const answer = await uploadLink(app, slug, "docs.example.test/page");
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const parsed = UploadAnswer.parse(answer.body);
  assert.equal(parsed.error, null);
  const document = parsed.documents![0];
  assert.match(document.location, /^custom-documents\/url-docs\.example\.test_page-[0-9a-f-]{36}\.json$/);
  assert.equal(document.title, "docs.example.test_page.html");
  assert.equal(document.url, "file://docs.example.test_page.html");
  assert.equal(document.docSource, "URL link uploaded by the user.");
  assert.equal(document.chunkSource, "link://https://docs.example.test/page");
  assert.equal(document.docAuthor, "no author found");
  assert.ok(!Number.isNaN(Date.parse(document.published)), "published is a date");

  const file = JSON.parse(await Deno.readTextFile(`${app.storageDir}/documents/${document.location}`));
  assert.match(file.pageContent, /^# Tide tables explained\n\nParagraph 1: a tide table lists/);
  assert.ok(!file.pageContent.includes("Home"), "navigation is left out");
  assert.ok(!file.pageContent.includes("<p>"), "no markup");
  const [row] = await app.deps.db.select().from(documents);
  assert.equal(JSON.parse(row.metadata).sourceUrl, "https://docs.example.test/page");

  // A redirect within the allowed site is followed.
  const moved = UploadAnswer.parse(
    (await uploadLink(app, slug, "https://docs.example.test/redirect-ok")).body,
  );
  assert.equal(moved.documents![0].title, "docs.example.test_redirect-ok.html");
});

Deno.test("upload-link reads a linked file by its type: a PDF keeps its pages, octet-stream goes by extension", async () => {
  const pdf = await Deno.readFile(
    new URL("../../tests/fixtures/documents/pdflatex-4-pages.pdf", import.meta.url),
  );
  await using site = startSite({ pdf });
  await using app = await createTestApp();
  app.deps.linkFetch = network(site);
  const slug = await workspaceOf(app);

  const answer = UploadAnswer.parse(
    (await uploadLink(app, slug, "https://docs.example.test/files/report.pdf")).body,
  );
  const document = answer.documents![0];
  assert.equal(document.title, "docs.example.test_files_report.pdf");
  assert.equal(document.chunkSource, "link://https://docs.example.test/files/report.pdf");
  const file = JSON.parse(await Deno.readTextFile(`${app.storageDir}/documents/${document.location}`));
  assert.equal(file.pageBreaks.length, 4);
  assert.match(file.pageContent, /^Hello, here is some text without a meaning/);

  const notes = UploadAnswer.parse((await uploadLink(app, slug, "https://docs.example.test/notes.md")).body);
  assert.equal(notes.documents![0].title, "docs.example.test_notes.md");
});

Deno.test("upload-link: clear errors for unreachable, missing, empty, unreadable and too large content", async () => {
  await using site = startSite({ big: 1024 * 1024 + 10 });
  await using app = await createTestApp({ env: { MAX_UPLOAD_MB: "1" } });
  app.deps.linkFetch = network(site);
  const slug = await workspaceOf(app);
  const expect = async (link: string, status: number, error: string | RegExp) => {
    const answer = await uploadLink(app, slug, link);
    assert.equal(answer.status, status, `${link}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.success, false);
    if (typeof error === "string") assert.equal(answer.body.error, error);
    else assert.match(String(answer.body.error), error);
  };
  await expect(
    "https://down.example.test/",
    502,
    "Could not reach https://down.example.test: Connection refused.",
  );
  await expect(
    "https://docs.example.test/missing",
    502,
    "Could not reach https://docs.example.test/missing: the server answered 404 Not Found.",
  );
  await expect(
    "https://docs.example.test/empty",
    400,
    "No URL content found at https://docs.example.test/empty.",
  );
  await expect(
    "https://docs.example.test/blank",
    400,
    "No URL content found at https://docs.example.test/blank.",
  );
  await expect(
    "https://docs.example.test/image",
    400,
    "https://docs.example.test/image serves image/png, which Lectern cannot read.",
  );
  await expect(
    "https://docs.example.test/big",
    413,
    "The content at https://docs.example.test/big is larger than the upload limit of 1 MB.",
  );
  const unknown = await uploadLink(app, "nope", "https://docs.example.test/page");
  assert.equal(unknown.status, 404);
  assert.equal((await app.deps.db.select().from(documents)).length, 0);
});

Deno.test("fetchLinkDocument re-fetches a link for live sync and sees its new text", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  app.deps.linkFetch = network(site);
  const first = await fetchLinkDocument(app.deps, "https://docs.example.test/page");
  assert.equal(first.kind, "page");
  assert.equal(first.url, "https://docs.example.test/page");
  assert.equal(first.pageTitle, "Tide tables explained");
  site.setArticle(ARTICLE.replace("Paragraph 1:", "Changed paragraph:"));
  const second = await fetchLinkDocument(app.deps, "https://docs.example.test/page");
  assert.notEqual(second.parsed.text, first.parsed.text);
  assert.match(second.parsed.text, /Changed paragraph:/);
});

Deno.test("upload-link is for admins, managers and a workspace's editors, not its viewers", async () => {
  await using site = startSite();
  await using app = await createTestApp();
  app.deps.linkFetch = network(site);
  const admin = await multiUserInstance(app);
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Team" },
  });
  const slug = created.body.workspace.slug;
  const manager = await addUser(app, admin, "morgan", "manager");
  const member = await addUser(app, admin, "dana", "default");
  // Dana is a viewer of the workspace: members read it, only editors (and admins, managers) add to it.
  const [dana] = await app.deps.db.select().from(users).where(eq(users.username, "dana"));
  await app.deps.db.insert(workspaceUsers).values({
    workspaceId: created.body.workspace.id,
    userId: dana.id,
  });
  const call = (token: string) =>
    app.json(`/api/workspace/${slug}/upload-link`, {
      ...bearer(token),
      json: { link: "https://docs.example.test/page" },
    });
  const refused = await call(member.token);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.success, false);
  assert.deepEqual(site.seen, [], "a refused caller fetches nothing");
  assert.equal((await call(manager.token)).status, 200);
});
