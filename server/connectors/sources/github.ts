import {
  type ConnectorContext,
  type ConnectorDocument,
  ConnectorError,
  type ConnectorSkip,
} from "../source.ts";
import {
  base64Bytes,
  blobLink,
  fileDocument,
  ignoreMatcher,
  issueText,
  listPages,
  mapped,
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
 * GitHub repositories through the REST API v3 (github.com, GitHub Enterprise Server at `{origin}/api/v3`,
 * GHE.com at `api.{host}`), as the reference's GitHub loader resolves them. Files come from the branch's tree
 * (one call, recursive) and each blob; issues (not pull requests) with their comments when asked.
 */
interface GithubRepo {
  /** The web origin (`https://github.com`), for the documents' links. */
  web: string;
  api: string;
  owner: string;
  name: string;
}

export function parseGithubUrl(raw: string): GithubRepo {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConnectorError("The repository URL must look like https://github.com/owner/repo.");
  }
  const [owner, rawName] = url.pathname.split("/").filter(Boolean);
  const name = rawName?.replace(/\.git$/, "");
  if ((url.protocol !== "https:" && url.protocol !== "http:") || !owner || !name) {
    throw new ConnectorError("The repository URL must look like https://github.com/owner/repo.");
  }
  let api: string;
  if (url.hostname === "github.com" || url.hostname === "www.github.com") api = "https://api.github.com";
  else if (url.hostname.startsWith("api.")) api = url.origin;
  else if (url.hostname.endsWith(".ghe.com")) api = `${url.protocol}//api.${url.host}`;
  else api = `${url.origin}/api/v3`;
  const web = url.hostname === "www.github.com" ? "https://github.com" : url.origin;
  return { web, api, owner, name };
}

function headers(token: string | undefined): HeadersInit {
  return {
    Accept: "application/vnd.github+json",
    "X-GitHub-Api-Version": "2022-11-28",
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

/** GitHub's REST API for one repository: its headers, its rate limit and its refusals' sentences. */
function githubApi(repo: GithubRepo): RepoApi {
  return {
    name: "GitHub",
    headers,
    rateLimited(response, token) {
      const remaining = response.headers.get("x-ratelimit-remaining");
      if (!(response.status === 429 || (response.status === 403 && remaining === "0"))) return null;
      const reset = Number(response.headers.get("x-ratelimit-reset")) || null;
      return `GitHub's rate limit was reached; it resets ${resetTime(reset)}.` +
        (token ? " Try again then." : " Add an access token, or try again then.");
    },
    refused:
      "GitHub refused the access token (401 Bad credentials). Check the token, or leave it empty for a public repository.",
    missing: (token) =>
      token
        ? `Cannot find the repository ${repo.owner}/${repo.name}, or the access token cannot read it.`
        : `Cannot find the repository ${repo.owner}/${repo.name}. A private repository needs an access token.`,
  };
}

const call = (
  context: ConnectorContext,
  repo: GithubRepo,
  url: string,
  token: string | undefined,
  notFound?: string,
) => repoCall(context, githubApi(repo), url, token, notFound);

function pages<T>(
  context: ConnectorContext,
  repo: GithubRepo,
  first: string,
  token: string | undefined,
): AsyncGenerator<T> {
  return listPages<T>(
    "GitHub",
    first,
    (url) => call(context, repo, url, token),
    (response) => nextLink(response.headers.get("link")),
  );
}

const repoPath = (repo: GithubRepo) => `${repo.api}/repos/${repo.owner}/${repo.name}`;

async function repoInfo(context: ConnectorContext, repo: GithubRepo, token: string | undefined) {
  const response = await call(context, repo, repoPath(repo), token);
  return await response.json() as { default_branch?: string };
}

/** The document link of a file: its page at the branch (the branch encoded, so the link splits back exactly). */
function blobUrl(repo: GithubRepo, branch: string, path: string): string {
  return blobLink(`${repo.web}/${repo.owner}/${repo.name}/blob`, branch, path);
}

interface TreeEntry {
  path: string;
  type: string;
  sha: string;
  size?: number;
}

interface Issue {
  number: number;
  title: string;
  body: string | null;
  state: string;
  html_url: string;
  updated_at: string;
  created_at: string;
  comments: number;
  user?: { login?: string };
  pull_request?: unknown;
}

async function issueDocument(
  context: ConnectorContext,
  repo: GithubRepo,
  issue: Issue,
  token: string | undefined,
): Promise<ConnectorDocument> {
  const comments = issue.comments > 0
    ? mapped(
      pages<{ body: string | null; user?: { login?: string }; created_at: string }>(
        context,
        repo,
        `${repoPath(repo)}/issues/${issue.number}/comments?per_page=100`,
        token,
      ),
      (comment) => ({ author: comment.user?.login, created: comment.created_at, body: comment.body ?? "" }),
    )
    : null;
  const text = await issueText({
    number: issue.number,
    title: issue.title,
    state: issue.state,
    author: issue.user?.login,
    created: issue.created_at,
    body: issue.body,
  }, comments);
  return {
    key: `issues/${issue.number}`,
    title: `Issue #${issue.number}: ${issue.title}`,
    text,
    url: issue.html_url,
    version: issue.updated_at,
    metadata: {
      docAuthor: issue.user?.login,
      description: `Issue #${issue.number} of ${repo.owner}/${repo.name}.`,
    },
  };
}

export const githubSource: RepoHost = {
  id: "github",
  name: "GitHub",

  folder(options) {
    const repo = parseGithubUrl(options.repo);
    return repoFolder(repo.owner, repo.name, options.branch ?? "");
  },

  describe(options) {
    const repo = parseGithubUrl(options.repo);
    return { author: repo.owner, repo: repo.name, branch: options.branch ?? "" };
  },

  async branches(input, context) {
    const repo = parseGithubUrl(input.repo);
    await repoInfo(context, repo, input.accessToken);
    const names: string[] = [];
    for await (
      const branch of pages<{ name: string }>(
        context,
        repo,
        `${repoPath(repo)}/branches?per_page=100`,
        input.accessToken,
      )
    ) names.push(branch.name);
    return preferredFirst(names);
  },

  async prepare(input, context) {
    const repo = parseGithubUrl(input.repo);
    const info = await repoInfo(context, repo, input.accessToken);
    const branch = input.branch || info.default_branch;
    if (!branch) {
      throw new ConnectorError(`The repository ${repo.owner}/${repo.name} has no branch to import.`);
    }
    const missing = `The branch "${branch}" does not exist in ${repo.owner}/${repo.name}.`;
    await (await call(
      context,
      repo,
      `${repoPath(repo)}/branches/${encodeURIComponent(branch)}`,
      input.accessToken,
      missing,
    ))
      .body?.cancel();
    return { ...input, branch };
  },

  async *documents(options: RepoOptions, context) {
    const repo = parseGithubUrl(options.repo);
    const token = options.accessToken;
    const branch = options.branch ?? "";
    const ignored = ignoreMatcher(options.ignorePaths);
    const treeUrl = `${repoPath(repo)}/git/trees/${encodeURIComponent(branch)}?recursive=1`;
    const tree = await (await call(context, repo, treeUrl, token)).json() as {
      tree?: TreeEntry[];
      truncated?: boolean;
    };
    if (tree.truncated) {
      context.log.warn("GitHub sent a truncated tree: the repository is larger than one listing", {
        repo: `${repo.owner}/${repo.name}`,
      });
    }
    for (const entry of tree.tree ?? []) {
      if (entry.type !== "blob") continue;
      const skipped = skippedEntry(entry.path, ignored, entry.size);
      if (skipped) {
        yield skipped;
        continue;
      }
      const blob = await (await call(context, repo, `${repoPath(repo)}/git/blobs/${entry.sha}`, token))
        .json() as {
          content?: string;
          encoding?: string;
        };
      const bytes = blob.encoding === "base64"
        ? base64Bytes(blob.content ?? "")
        : new TextEncoder().encode(blob.content ?? "");
      yield fileDocument(bytes, {
        key: entry.path,
        title: entry.path,
        url: blobUrl(repo, branch, entry.path),
        version: entry.sha,
        metadata: {
          docAuthor: repo.owner,
          description: `${entry.path} in ${repo.owner}/${repo.name} (${branch}).`,
        },
      });
    }
    if (options.fetchIssues) {
      for await (
        const issue of pages<Issue>(context, repo, `${repoPath(repo)}/issues?state=all&per_page=100`, token)
      ) {
        if (issue.pull_request) continue;
        yield await issueDocument(context, repo, issue, token);
      }
    }
  },

  credentials: repoCredentials,

  async refetch({ url, credentials }, context): Promise<ConnectorDocument | ConnectorSkip> {
    const token = credentials?.accessToken || undefined;
    const match = url.match(/^(https?:\/\/[^/]+)\/([^/]+)\/([^/]+)\/blob\/(.+)$/);
    const file = match ? splitBlobLink(match[4]) : null;
    if (!match || !file) throw new ConnectorError("This document's link is not a GitHub file.");
    const repo = parseGithubUrl(`${match[1]}/${match[2]}/${match[3]}`);
    const contents = `${repoPath(repo)}/contents/${file.encodedPath}?ref=${encodeURIComponent(file.branch)}`;
    return await refetchFile(
      (missing) => call(context, repo, contents, token, missing),
      { url, branch: file.branch, path: file.path, author: repo.owner },
      "sha",
    );
  },
};
