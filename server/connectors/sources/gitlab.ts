import {
  type ConnectorContext,
  type ConnectorDocument,
  ConnectorError,
  type ConnectorSkip,
} from "../source.ts";
import {
  blobLink,
  boundedBytes,
  fileDocument,
  ignoreMatcher,
  type IssueComment,
  issueText,
  listPages,
  MAX_REPO_FILE_BYTES,
  nextLink,
  preferredFirst,
  refetchFile,
  type RepoApi,
  repoCall,
  repoCredentials,
  repoFolder,
  type RepoHost,
  type RepoOptions,
  resetTime,
  skippedEntry,
  splitBlobLink,
} from "./repo.ts";

/**
 * GitLab projects through the REST API v4 (gitlab.com or a self-hosted GitLab by its URL; a private address
 * needs the operator's LECTERN_CONNECTOR_PRIVATE_HOSTS). Files come from the recursive tree (paginated) and
 * each blob's raw bytes; issues with their notes and wiki pages when asked.
 */
interface GitlabProject {
  web: string;
  api: string;
  /** `group/subgroup/project`. */
  path: string;
  author: string;
  name: string;
}

export function parseGitlabUrl(raw: string): GitlabProject {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConnectorError("The repository URL must look like https://gitlab.com/group/project.");
  }
  const segments = url.pathname.split("/-/")[0].split("/").filter(Boolean);
  if (segments.length > 0) {
    segments[segments.length - 1] = segments[segments.length - 1].replace(/\.git$/, "");
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || segments.length < 2) {
    throw new ConnectorError("The repository URL must look like https://gitlab.com/group/project.");
  }
  const path = segments.join("/");
  return {
    web: `${url.origin}/${path}`,
    api: `${url.origin}/api/v4/projects/${encodeURIComponent(path)}`,
    path,
    author: segments.slice(0, -1).join("/"),
    name: segments[segments.length - 1],
  };
}

/** GitLab's REST API for one project: its headers, its rate limit and its refusals' sentences. */
function gitlabApi(project: GitlabProject): RepoApi {
  return {
    name: "GitLab",
    headers: (token): HeadersInit => (token ? { "PRIVATE-TOKEN": token } : {}),
    rateLimited(response) {
      if (response.status !== 429) return null;
      const reset = Number(response.headers.get("ratelimit-reset")) || null;
      const retry = Number(response.headers.get("retry-after"));
      const when = reset
        ? resetTime(reset)
        : Number.isFinite(retry) && retry > 0
        ? `in ${Math.ceil(retry / 60)} minute${retry > 60 ? "s" : ""}`
        : "soon";
      return `GitLab's rate limit was reached; it resets ${when}. Try again then.`;
    },
    refused:
      "GitLab refused the access token (401 Unauthorized). Check the token, or leave it empty for a public project.",
    missing: (token) =>
      token
        ? `Cannot find the project ${project.path}, or the access token cannot read it.`
        : `Cannot find the project ${project.path}. A private project needs an access token.`,
  };
}

const call = (
  context: ConnectorContext,
  project: GitlabProject,
  url: string,
  token: string | undefined,
  notFound?: string,
) => repoCall(context, gitlabApi(project), url, token, notFound);

/** A paginated list: the `Link` header's next page, else `X-Next-Page` (GitLab sends both, large lists the latter). */
function pages<T>(
  context: ConnectorContext,
  project: GitlabProject,
  first: string,
  token: string | undefined,
): AsyncGenerator<T> {
  return listPages<T>("GitLab", first, (url) => call(context, project, url, token), (response, url) => {
    const link = nextLink(response.headers.get("link"));
    const next = response.headers.get("x-next-page");
    if (link || !next) return link;
    const following = new URL(url);
    following.searchParams.set("page", next);
    return following.href;
  });
}

function blobUrl(project: GitlabProject, branch: string, path: string): string {
  return blobLink(`${project.web}/-/blob`, branch, path);
}

interface Issue {
  iid: number;
  title: string;
  description: string | null;
  state: string;
  web_url: string;
  updated_at: string;
  created_at: string;
  user_notes_count?: number;
  author?: { username?: string };
}

async function issueDocument(
  context: ConnectorContext,
  project: GitlabProject,
  issue: Issue,
  token: string | undefined,
): Promise<ConnectorDocument> {
  const notes = (issue.user_notes_count ?? 0) > 0
    ? pages<{ body: string; system?: boolean; author?: { username?: string }; created_at: string }>(
      context,
      project,
      `${project.api}/issues/${issue.iid}/notes?per_page=100&sort=asc`,
      token,
    )
    : null;
  const text = await issueText({
    number: issue.iid,
    title: issue.title,
    state: issue.state,
    author: issue.author?.username,
    created: issue.created_at,
    body: issue.description,
  }, notes && userNotes(notes));
  return {
    key: `issues/${issue.iid}`,
    title: `Issue #${issue.iid}: ${issue.title}`,
    text,
    url: issue.web_url,
    version: issue.updated_at,
    metadata: { docAuthor: issue.author?.username, description: `Issue #${issue.iid} of ${project.path}.` },
  };
}

/** The people's notes of an issue (GitLab's system notes, "changed the label", left out). */
async function* userNotes(
  notes: AsyncIterable<
    { body: string; system?: boolean; author?: { username?: string }; created_at: string }
  >,
): AsyncGenerator<IssueComment> {
  for await (const note of notes) {
    if (!note.system) yield { author: note.author?.username, created: note.created_at, body: note.body };
  }
}

async function textHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const gitlabSource: RepoHost = {
  id: "gitlab",
  name: "GitLab",

  folder(options) {
    const project = parseGitlabUrl(options.repo);
    return repoFolder(project.author.replaceAll("/", "-"), project.name, options.branch ?? "");
  },

  describe(options) {
    const project = parseGitlabUrl(options.repo);
    return { author: project.author, repo: project.name, branch: options.branch ?? "" };
  },

  async branches(input, context) {
    const project = parseGitlabUrl(input.repo);
    await (await call(context, project, project.api, input.accessToken)).body?.cancel();
    const names: string[] = [];
    const url = `${project.api}/repository/branches?per_page=100`;
    for await (const branch of pages<{ name: string }>(context, project, url, input.accessToken)) {
      names.push(branch.name);
    }
    return preferredFirst(names);
  },

  async prepare(input, context) {
    const project = parseGitlabUrl(input.repo);
    const info = await (await call(context, project, project.api, input.accessToken)).json() as {
      default_branch?: string;
    };
    const branch = input.branch || info.default_branch;
    if (!branch) throw new ConnectorError(`The project ${project.path} has no branch to import.`);
    const missing = `The branch "${branch}" does not exist in ${project.path}.`;
    const url = `${project.api}/repository/branches/${encodeURIComponent(branch)}`;
    await (await call(context, project, url, input.accessToken, missing)).body?.cancel();
    return { ...input, branch };
  },

  async *documents(options: RepoOptions, context) {
    const project = parseGitlabUrl(options.repo);
    const token = options.accessToken;
    const branch = options.branch ?? "";
    const ignored = ignoreMatcher(options.ignorePaths);
    const treeUrl = `${project.api}/repository/tree?ref=${
      encodeURIComponent(branch)
    }&recursive=true&per_page=100`;
    for await (
      const entry of pages<{ id: string; path: string; type: string }>(context, project, treeUrl, token)
    ) {
      if (entry.type !== "blob") continue;
      const skipped = skippedEntry(entry.path, ignored);
      if (skipped) {
        yield skipped;
        continue;
      }
      const response = await call(context, project, `${project.api}/repository/blobs/${entry.id}/raw`, token);
      const bytes = await boundedBytes(response, MAX_REPO_FILE_BYTES);
      if (!bytes) {
        yield { skip: entry.path, why: "Too large." };
        continue;
      }
      yield fileDocument(bytes, {
        key: entry.path,
        title: entry.path,
        url: blobUrl(project, branch, entry.path),
        version: entry.id,
        metadata: { docAuthor: project.author, description: `${entry.path} in ${project.path} (${branch}).` },
      });
    }
    if (options.fetchIssues) {
      const url = `${project.api}/issues?state=all&per_page=100`;
      for await (const issue of pages<Issue>(context, project, url, token)) {
        yield await issueDocument(context, project, issue, token);
      }
    }
    if (options.fetchWikis) {
      const url = `${project.api}/wikis?with_content=1`;
      const wiki = await (await call(context, project, url, token)).json() as {
        slug: string;
        title: string;
        content?: string;
      }[];
      for (const page of Array.isArray(wiki) ? wiki : []) {
        const text = page.content ?? "";
        yield {
          key: `wiki/${page.slug}`,
          title: `Wiki: ${page.title}`,
          text,
          url: `${project.web}/-/wikis/${page.slug}`,
          version: await textHash(text),
          metadata: { docAuthor: project.author, description: `Wiki page of ${project.path}.` },
        };
      }
    }
  },

  credentials: repoCredentials,

  async refetch({ url, credentials }, context): Promise<ConnectorDocument | ConnectorSkip> {
    const token = credentials?.accessToken || undefined;
    const [web, rest] = url.split("/-/blob/");
    const file = rest ? splitBlobLink(rest) : null;
    if (!file) throw new ConnectorError("This document's link is not a GitLab file.");
    const project = parseGitlabUrl(web);
    const fileUrl = `${project.api}/repository/files/${encodeURIComponent(file.path)}?ref=${
      encodeURIComponent(file.branch)
    }`;
    return await refetchFile(
      (missing) => call(context, project, fileUrl, token, missing),
      { url, branch: file.branch, path: file.path, author: project.author },
      "blob_id",
    );
  },
};
