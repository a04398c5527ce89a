import {
  base64Of,
  bytesOf,
  type FakeFiles,
  type FakeGitServer,
  gitBlobSha,
  paginate,
} from "./fake_github.ts";

/**
 * A self-hosted GitLab's REST API v4 on 127.0.0.1 (`{origin}/api/v4/projects/:id/...`, the id the URL-encoded
 * path), for the GitLab connector's tests: projects (public or private, `PRIVATE-TOKEN`), branches, the
 * recursive tree, raw blobs, files, issues with notes, wiki pages; pagination by `Link`, `X-Next-Page` and
 * `X-Total-Pages` headers, and `RateLimit-*` headers (429 with `Retry-After` when rate limited).
 */
export interface FakeProject {
  /** `group/project` or `group/subgroup/project`. */
  path: string;
  private?: boolean;
  defaultBranch?: string;
  branches: Record<string, FakeFiles>;
  issues?: { iid: number; title: string; description: string; updatedAt?: string; notes?: string[] }[];
  wiki?: { slug: string; title: string; content: string }[];
}

export function startFakeGitlab(
  options: { projects: FakeProject[]; token?: string; perPage?: number },
): FakeGitServer {
  const perPageCap = options.perPage ?? 2;
  let remaining = 2000;
  const reset = Math.floor(Date.UTC(2030, 0, 1, 14, 5) / 1000);
  const state: FakeGitServer = {
    url: "",
    calls: [],
    rateLimited: false,
    failAfterCalls: null,
    pause() {
      let release = () => {};
      gate = new Promise<void>((resolve) => release = resolve);
      return () => {
        gate = null;
        release();
      };
    },
    close: () => server.shutdown(),
  };
  let gate: Promise<void> | null = null;

  const headers = (extra: Record<string, string> = {}) => ({
    "ratelimit-limit": "2000",
    "ratelimit-remaining": String(state.rateLimited ? 0 : remaining),
    "ratelimit-reset": String(reset),
    ...extra,
  });
  const json = (body: unknown, status = 200, extra: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: headers({ "content-type": "application/json", ...extra }),
    });
  const paged = (url: URL, items: unknown[]) => {
    const { page, link, next, total } = paginate(url, items, perPageCap);
    return json(page, 200, {
      ...(link ? { link } : {}),
      "x-next-page": next ? String(next) : "",
      "x-total-pages": String(total),
      "x-total": String(items.length),
      "x-per-page": String(Math.min(Number(url.searchParams.get("per_page")) || 20, perPageCap)),
    });
  };

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const token = request.headers.get("private-token");
    state.calls.push({ path: `${request.method} ${url.pathname}${url.search}`, credential: token });
    if (state.failAfterCalls !== null && state.calls.length > state.failAfterCalls) {
      return json({ message: "502 Bad Gateway" }, 502);
    }
    if (state.rateLimited) {
      return new Response("Retry later\n", { status: 429, headers: headers({ "retry-after": "60" }) });
    }
    remaining = Math.max(0, remaining - 1);
    if (token !== null && token !== options.token) return json({ message: "401 Unauthorized" }, 401);
    const match = url.pathname.match(/^\/api\/v4\/projects\/([^/]+)(\/.*)?$/);
    const missing = json({ message: "404 Project Not Found" }, 404);
    if (!match) return json({ error: "404 Not Found" }, 404);
    const path = decodeURIComponent(match[1]);
    const rest = match[2] ?? "";
    const project = options.projects.find((candidate) => candidate.path === path);
    if (!project || (project.private && token === null)) return missing;
    const defaultBranch = project.defaultBranch ?? Object.keys(project.branches)[0];
    const web = `${url.origin}/${project.path}`;
    if (rest === "") {
      return json({ id: 7, path_with_namespace: project.path, default_branch: defaultBranch, web_url: web });
    }
    if (rest === "/repository/branches") {
      return paged(
        url,
        Object.keys(project.branches).map((name) => ({ name, default: name === defaultBranch })),
      );
    }
    const branchMatch = rest.match(/^\/repository\/branches\/(.+)$/);
    if (branchMatch) {
      const name = decodeURIComponent(branchMatch[1]);
      return project.branches[name] ? json({ name }) : json({ message: "404 Branch Not Found" }, 404);
    }
    if (rest === "/repository/tree") {
      const files = project.branches[url.searchParams.get("ref") ?? defaultBranch];
      if (!files) return json({ message: "404 Tree Not Found" }, 404);
      const entries: unknown[] = [];
      const folders = new Set<string>();
      for (const [filePath, content] of Object.entries(files)) {
        const parts = filePath.split("/");
        for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join("/"));
        entries.push({
          id: await gitBlobSha(content),
          name: parts[parts.length - 1],
          type: "blob",
          path: filePath,
          mode: "100644",
        });
      }
      for (const folder of folders) {
        entries.unshift({
          id: "1".repeat(40),
          name: folder.split("/").pop(),
          type: "tree",
          path: folder,
          mode: "040000",
        });
      }
      return paged(url, entries);
    }
    const blobMatch = rest.match(/^\/repository\/blobs\/([0-9a-f]{40})\/raw$/);
    if (blobMatch) {
      if (gate) await gate;
      for (const files of Object.values(project.branches)) {
        for (const content of Object.values(files)) {
          if (await gitBlobSha(content) === blobMatch[1]) {
            return new Response(bytesOf(content).slice(), {
              headers: headers({ "content-type": "text/plain; charset=utf-8" }),
            });
          }
        }
      }
      return json({ message: "404 Blob Not Found" }, 404);
    }
    const fileMatch = rest.match(/^\/repository\/files\/([^/]+)$/);
    if (fileMatch) {
      const filePath = decodeURIComponent(fileMatch[1]);
      const content = project.branches[url.searchParams.get("ref") ?? defaultBranch]?.[filePath];
      if (content === undefined) return json({ message: "404 File Not Found" }, 404);
      return json({
        file_path: filePath,
        encoding: "base64",
        content: base64Of(content).replaceAll("\n", ""),
        blob_id: await gitBlobSha(content),
      });
    }
    if (rest === "/issues") {
      return paged(
        url,
        (project.issues ?? []).map((issue) => ({
          iid: issue.iid,
          title: issue.title,
          description: issue.description,
          state: "opened",
          web_url: `${web}/-/issues/${issue.iid}`,
          created_at: "2026-01-02T03:04:05.000Z",
          updated_at: issue.updatedAt ?? "2026-01-02T03:04:05.000Z",
          user_notes_count: issue.notes?.length ?? 0,
          author: { username: "reporter" },
        })),
      );
    }
    const notesMatch = rest.match(/^\/issues\/(\d+)\/notes$/);
    if (notesMatch) {
      const issue = project.issues?.find((candidate) => candidate.iid === Number(notesMatch[1]));
      if (!issue) return json({ message: "404 Issue Not Found" }, 404);
      return paged(url, [
        {
          body: "changed the description",
          system: true,
          author: { username: "bot" },
          created_at: "2026-01-03",
        },
        ...(issue.notes ?? []).map((body) => ({
          body,
          system: false,
          author: { username: "commenter" },
          created_at: "2026-01-03",
        })),
      ]);
    }
    if (rest === "/wikis") {
      return json((project.wiki ?? []).map((page) => ({ ...page, format: "markdown", encoding: "UTF-8" })));
    }
    return json({ error: "404 Not Found" }, 404);
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  state.url = `http://127.0.0.1:${server.addr.port}`;
  return state;
}
