/**
 * A GitHub Enterprise-style REST API v3 on 127.0.0.1 (`{origin}/api/v3/...`), for the GitHub connector's tests:
 * repositories (public or private), branches, the recursive tree, blobs, contents, issues with comments,
 * pagination by `Link` headers (pages of `perPage` items) and rate-limit headers on every answer. Repository
 * URLs are `{origin}/{owner}/{name}`, as on a GitHub Enterprise Server.
 */
export type FakeFiles = Record<string, string | Uint8Array>;

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  updatedAt?: string;
  comments?: string[];
  pullRequest?: boolean;
}

export interface FakeRepo {
  owner: string;
  name: string;
  private?: boolean;
  defaultBranch?: string;
  /** Each branch's files by path; change them between imports to see updates. */
  branches: Record<string, FakeFiles>;
  issues?: FakeIssue[];
}

export interface FakeGitServer {
  url: string;
  /** `METHOD path?query` and the credential each call carried (tests check tokens stay where they belong). */
  calls: { path: string; credential: string | null }[];
  /** While true, every call answers the host's rate-limit refusal. */
  rateLimited: boolean;
  /** When set, every call after this many answers 502 (an import that fails half-way). */
  failAfterCalls: number | null;
  /**
   * Holds every file (blob) answer after the first `after` (none by default) until the returned function is
   * called: an import caught half-way.
   */
  pause(after?: number): () => void;
  close(): Promise<void>;
}

export function bytesOf(content: string | Uint8Array): Uint8Array {
  return typeof content === "string" ? new TextEncoder().encode(content) : content;
}

/** The git blob id of the content (sha1 of `blob <size>\0<content>`), as GitHub and GitLab name blobs. */
export async function gitBlobSha(content: string | Uint8Array): Promise<string> {
  const body = bytesOf(content);
  const header = new TextEncoder().encode(`blob ${body.length}\0`);
  const whole = new Uint8Array(header.length + body.length);
  whole.set(header);
  whole.set(body, header.length);
  const digest = await crypto.subtle.digest("SHA-1", whole);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function base64Of(content: string | Uint8Array): string {
  const body = bytesOf(content);
  let binary = "";
  for (const byte of body) binary += String.fromCharCode(byte);
  // GitHub wraps base64 content at 60 characters.
  return btoa(binary).replace(/.{60}/g, "$&\n");
}

/** One page of `items` and the `Link` header pointing at the others (GitHub's and GitLab's format). */
export function paginate<T>(
  url: URL,
  items: T[],
  perPageCap: number,
): { page: T[]; link: string; next: number | null; total: number } {
  const perPage = Math.max(1, Math.min(Number(url.searchParams.get("per_page")) || 30, perPageCap));
  const pageNumber = Math.max(1, Number(url.searchParams.get("page")) || 1);
  const total = Math.max(1, Math.ceil(items.length / perPage));
  const at = (page: number) => {
    const other = new URL(url);
    other.searchParams.set("page", String(page));
    return other.href;
  };
  const links: string[] = [];
  if (pageNumber < total) links.push(`<${at(pageNumber + 1)}>; rel="next"`, `<${at(total)}>; rel="last"`);
  if (pageNumber > 1) links.push(`<${at(1)}>; rel="first"`, `<${at(pageNumber - 1)}>; rel="prev"`);
  return {
    page: items.slice((pageNumber - 1) * perPage, pageNumber * perPage),
    link: links.join(", "),
    next: pageNumber < total ? pageNumber + 1 : null,
    total,
  };
}

export function startFakeGithub(
  options: { repos: FakeRepo[]; token?: string; perPage?: number },
): FakeGitServer {
  const perPageCap = options.perPage ?? 2;
  let remaining = 5000;
  const reset = Math.floor(Date.UTC(2030, 0, 1, 14, 5) / 1000);
  const state: FakeGitServer = {
    url: "",
    calls: [],
    rateLimited: false,
    failAfterCalls: null,
    pause(after = 0) {
      let release = () => {};
      gateAfter = after;
      gate = new Promise<void>((resolve) => release = resolve);
      return () => {
        gate = null;
        release();
      };
    },
    close: () => server.shutdown(),
  };
  let gate: Promise<void> | null = null;
  let gateAfter = 0;

  const json = (body: unknown, status = 200, extra: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": String(state.rateLimited ? 0 : remaining),
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "core",
        ...extra,
      },
    });
  const notFound = () =>
    json({ message: "Not Found", documentation_url: "https://docs.github.com/rest" }, 404);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const authorization = request.headers.get("authorization");
    state.calls.push({ path: `${request.method} ${url.pathname}${url.search}`, credential: authorization });
    if (state.failAfterCalls !== null && state.calls.length > state.failAfterCalls) {
      return json({ message: "Server Error" }, 502);
    }
    if (state.rateLimited) {
      return json({
        message:
          "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit.)",
      }, 403);
    }
    remaining = Math.max(0, remaining - 1);
    const token = authorization?.replace(/^(Bearer|token) /, "") ?? null;
    if (token !== null && token !== options.token) {
      return json({ message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }, 401);
    }
    const match = url.pathname.match(/^\/api\/v3\/repos\/([^/]+)\/([^/]+)(\/.*)?$/);
    if (!match) return notFound();
    const [, owner, name, rest = ""] = match;
    const repo = options.repos.find((candidate) => candidate.owner === owner && candidate.name === name);
    if (!repo || (repo.private && token === null)) return notFound();
    const defaultBranch = repo.defaultBranch ?? Object.keys(repo.branches)[0];
    const origin = url.origin;
    if (rest === "") {
      return json({
        full_name: `${owner}/${name}`,
        private: repo.private ?? false,
        default_branch: defaultBranch,
        html_url: `${origin}/${owner}/${name}`,
      });
    }
    if (rest === "/branches") {
      const branches = Object.keys(repo.branches).map((branch) => ({
        name: branch,
        commit: { sha: "0".repeat(40) },
      }));
      const { page, link } = paginate(url, branches, perPageCap);
      return json(page, 200, link ? { link } : {});
    }
    const branchMatch = rest.match(/^\/branches\/(.+)$/);
    if (branchMatch) {
      const branch = decodeURIComponent(branchMatch[1]);
      return repo.branches[branch] ? json({ name: branch }) : json({ message: "Branch not found" }, 404);
    }
    const treeMatch = rest.match(/^\/git\/trees\/(.+)$/);
    if (treeMatch) {
      const files = repo.branches[decodeURIComponent(treeMatch[1])];
      if (!files) return json({ message: "Not Found" }, 404);
      const tree: unknown[] = [];
      const folders = new Set<string>();
      for (const [path, content] of Object.entries(files)) {
        const parts = path.split("/");
        for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join("/"));
        tree.push({
          path,
          mode: "100644",
          type: "blob",
          sha: await gitBlobSha(content),
          size: bytesOf(content).length,
        });
      }
      for (const folder of folders) {
        tree.push({ path: folder, mode: "040000", type: "tree", sha: "1".repeat(40) });
      }
      return json({ sha: "2".repeat(40), tree, truncated: false });
    }
    const blobMatch = rest.match(/^\/git\/blobs\/([0-9a-f]{40})$/);
    if (blobMatch) {
      if (gate && gateAfter-- <= 0) await gate;
      for (const files of Object.values(repo.branches)) {
        for (const content of Object.values(files)) {
          if (await gitBlobSha(content) === blobMatch[1]) {
            const size = bytesOf(content).length;
            return json({ sha: blobMatch[1], size, content: base64Of(content), encoding: "base64" });
          }
        }
      }
      return notFound();
    }
    const contentsMatch = rest.match(/^\/contents\/(.+)$/);
    if (contentsMatch) {
      const files = repo.branches[url.searchParams.get("ref") ?? defaultBranch];
      const path = contentsMatch[1].split("/").map(decodeURIComponent).join("/");
      const content = files?.[path];
      if (content === undefined) return notFound();
      return json({
        type: "file",
        path,
        sha: await gitBlobSha(content),
        content: base64Of(content),
        encoding: "base64",
      });
    }
    if (rest === "/issues") {
      const issues = (repo.issues ?? []).map((issue) => ({
        number: issue.number,
        title: issue.title,
        body: issue.body,
        state: "open",
        html_url: `${origin}/${owner}/${name}/${issue.pullRequest ? "pull" : "issues"}/${issue.number}`,
        created_at: "2026-01-02T03:04:05Z",
        updated_at: issue.updatedAt ?? "2026-01-02T03:04:05Z",
        comments: issue.comments?.length ?? 0,
        user: { login: "reporter" },
        ...(issue.pullRequest ? { pull_request: { url: `${origin}/pulls/${issue.number}` } } : {}),
      }));
      const { page, link } = paginate(url, issues, perPageCap);
      return json(page, 200, link ? { link } : {});
    }
    const commentsMatch = rest.match(/^\/issues\/(\d+)\/comments$/);
    if (commentsMatch) {
      const issue = repo.issues?.find((candidate) => candidate.number === Number(commentsMatch[1]));
      if (!issue) return notFound();
      const comments = (issue.comments ?? []).map((body, index) => ({
        id: index + 1,
        body,
        user: { login: "commenter" },
        created_at: "2026-01-03T00:00:00Z",
      }));
      const { page, link } = paginate(url, comments, perPageCap);
      return json(page, 200, link ? { link } : {});
    }
    return notFound();
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  state.url = `http://127.0.0.1:${server.addr.port}`;
  return state;
}
