import ignore from "ignore";
import { decodeText, looksLikeText } from "../../documents/text.ts";
import {
  type ConnectorContext,
  type ConnectorDocument,
  ConnectorError,
  type ConnectorSkip,
  type ConnectorSource,
  type RefetchInput,
} from "../source.ts";

/**
 * What GitHub and GitLab share: the options of spec 02 §3's repository payload (the branch settled by
 * `prepare`), the folder name, the ignore list, and how a file's bytes become a document or a skip.
 */
export interface RepoOptions {
  repo: string;
  accessToken?: string;
  branch?: string;
  ignorePaths: string[];
  fetchIssues: boolean;
  fetchWikis: boolean;
}

/** A file larger than this is skipped ("Too large."): a repository's text and code files are far smaller. */
export const MAX_REPO_FILE_BYTES = 1024 * 1024;

/** Extensions that are never text: skipped without being downloaded. */
const BINARY_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif bmp ico webp tif tiff psd ai heic avif pdf zip gz tgz bz2 xz 7z rar jar war ear class " +
    "exe dll so dylib a o obj lib bin dat db sqlite woff woff2 ttf otf eot mp3 mp4 m4a wav ogg flac mov avi " +
    "mkv webm pyc pyo wasm iso dmg pkg deb rpm apk ipa npy npz pt pth onnx h5 parquet avro docx xlsx pptx"
  ).split(" "),
);

export function extensionOf(path: string): string {
  const name = path.split("/").pop() ?? "";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

export function binaryByName(path: string): boolean {
  return BINARY_EXTENSIONS.has(extensionOf(path));
}

/** The library folder of a repository import: `owner-repo-branch`, lower case, safe as a folder name. */
export function repoFolder(...parts: string[]): string {
  const name = parts.join("-").toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return (name || "repository").slice(0, 180);
}

/** The gitignore-style patterns of the form; `ignores(path)` is true for a path they leave out. */
export function ignoreMatcher(patterns: string[]): (path: string) => boolean {
  const matcher = ignore().add(patterns.map((pattern) => pattern.trim()).filter(Boolean));
  return (path) => matcher.ignores(path);
}

/** A file's bytes as a document, or a skip when they are not text. */
export function fileDocument(
  bytes: Uint8Array,
  document: Omit<ConnectorDocument, "text">,
): ConnectorDocument | ConnectorSkip {
  if (bytes.length > MAX_REPO_FILE_BYTES) return { skip: document.key, why: "Too large." };
  if (!looksLikeText(bytes)) return { skip: document.key, why: "Binary file." };
  return { ...document, text: decodeText(bytes).text };
}

export function base64Bytes(value: string): Uint8Array {
  const binary = atob(value.replace(/\s/g, ""));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** The `rel="next"` address of a `Link` header (RFC 8288, as GitHub and GitLab send it), if any. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(",")) {
    const match = part.match(/<([^>]+)>\s*;(.*)$/);
    if (match && /rel="?([^"]*\s)?next(\s[^"]*)?"?/.test(match[2])) return match[1].trim();
  }
  return null;
}

/** Reads at most `limit` bytes of a body; null (and the body cancelled) when it is larger. */
export async function boundedBytes(response: Response, limit: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** When a rate limit ends (`reset` in epoch seconds), as a time people read: "at 14:05 UTC". */
export function resetTime(epochSeconds: number | null): string {
  if (!epochSeconds || !Number.isFinite(epochSeconds)) return "soon";
  return `at ${new Date(epochSeconds * 1000).toISOString().slice(11, 16)} UTC`;
}

/** The access token kept (encrypted) for live sync, when the import had one. */
export function repoCredentials(options: RepoOptions): Record<string, string> | null {
  return options.accessToken ? { accessToken: options.accessToken } : null;
}

/** The branches with `main` and `master` first, as the reference lists them. */
export function preferredFirst(branches: string[]): string[] {
  const unique = [...new Set(branches)];
  const preferred = ["main", "master"].filter((name) => unique.includes(name));
  return [...preferred, ...unique.filter((name) => !preferred.includes(name))];
}

/** A repository host's source: besides the documents, the branch list, the pre-flight and live sync's re-fetch. */
export interface RepoHost extends ConnectorSource<RepoOptions> {
  /** The host's name in sentences: "GitHub", "GitLab". */
  name: string;
  /** The repository's branches, `main` and `master` first; throws `ConnectorError` when it cannot be read. */
  branches(input: { repo: string; accessToken?: string }, context: ConnectorContext): Promise<string[]>;
  /**
   * Checks the URL, the token and the branch before the import starts (an unknown branch, a private repository
   * without a token and a refused token fail here, answered at once); returns the options with the branch set.
   */
  prepare(input: RepoOptions, context: ConnectorContext): Promise<RepoOptions & { branch: string }>;
  /** What the reference answers: `author`, `repo`, `branch`. */
  describe(options: RepoOptions): { author: string; repo: string; branch: string };
  /**
   * One file again at its branch's head, by the document's `url` (live sync), with the import's access token
   * when it had one.
   */
  refetch(input: RefetchInput, context: ConnectorContext): Promise<ConnectorDocument | ConnectorSkip>;
}

/**
 * The items of a paginated list, page after page: `fetchPage` reads one page (its errors are the host's),
 * `nextPage` names the following one from the answer, or null at the end.
 */
export async function* listPages<T>(
  host: string,
  first: string,
  fetchPage: (url: string) => Promise<Response>,
  nextPage: (response: Response, url: string) => string | null,
): AsyncGenerator<T> {
  let url: string | null = first;
  while (url) {
    const response: Response = await fetchPage(url);
    const items = await response.json() as T[];
    if (!Array.isArray(items)) {
      throw new ConnectorError(`${host} answered a list in a shape Lectern does not know.`);
    }
    yield* items;
    url = nextPage(response, url);
  }
}

/**
 * How a repository host's REST API is called and how its refusals read: its headers for a token, its rate
 * limit's sentence (null when the answer is no rate limit), and its sentences for a refused token and a
 * repository that cannot be read.
 */
export interface RepoApi {
  /** The host's name in sentences: "GitHub", "GitLab". */
  name: string;
  headers(token: string | undefined): HeadersInit;
  rateLimited(response: Response, token: string | undefined): string | null;
  /** The 401 sentence. */
  refused: string;
  /** The 403 and 404 sentence (a private repository without a token, or a token that cannot read it). */
  missing(token: string | undefined): string;
}

/**
 * Fetches an API address through the import's guarded fetch; every failure the person can act on becomes a
 * ConnectorError sentence (`notFound` for a 404 of something other than the repository: a branch, a file).
 */
export async function repoCall(
  context: ConnectorContext,
  api: RepoApi,
  url: string,
  token: string | undefined,
  notFound?: string,
): Promise<Response> {
  const response = await context.fetch(url, { headers: api.headers(token), signal: context.signal });
  if (response.ok) return response;
  await response.body?.cancel();
  const limited = api.rateLimited(response, token);
  if (limited) throw new ConnectorError(limited);
  if (response.status === 401) throw new ConnectorError(api.refused);
  if (response.status === 404 && notFound) throw new ConnectorError(notFound);
  if (response.status === 404 || response.status === 403) throw new ConnectorError(api.missing(token));
  throw new ConnectorError(
    `${api.name} answered ${response.status} ${response.statusText || "(an error)"}.`.trim(),
  );
}

/** A tree entry left out before its bytes are fetched (ignored, larger than its listed size allows, binary). */
export function skippedEntry(
  path: string,
  ignored: (path: string) => boolean,
  size?: number,
): ConnectorSkip | null {
  if (ignored(path)) return { skip: path, why: "Ignored." };
  if ((size ?? 0) > MAX_REPO_FILE_BYTES) return { skip: path, why: "Too large." };
  if (binaryByName(path)) return { skip: path, why: "Binary file." };
  return null;
}

/** A file's page at its branch (the branch encoded, so the link splits back exactly): `{prefix}/{branch}/{path}`. */
export function blobLink(prefix: string, branch: string, path: string): string {
  return `${prefix}/${encodeURIComponent(branch)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** One comment of an issue, as both hosts' issue documents show it. */
export interface IssueComment {
  author?: string;
  created: string;
  body: string;
}

/** An issue's document text: its title, state, opener and body, then each comment under its author and date. */
export async function issueText(
  issue: {
    number: number;
    title: string;
    state: string;
    author?: string;
    created: string;
    body: string | null;
  },
  comments: AsyncIterable<IssueComment> | null,
): Promise<string> {
  const lines = [
    `# ${issue.title} (#${issue.number})`,
    "",
    `State: ${issue.state}. Opened by ${issue.author ?? "unknown"} on ${issue.created}.`,
    "",
    issue.body ?? "",
  ];
  for await (const comment of comments ?? []) {
    lines.push("", `## ${comment.author ?? "unknown"} on ${comment.created}`, "", comment.body);
  }
  return lines.join("\n");
}

/** Each item of `items` through `map`, as they come. */
export async function* mapped<T, U>(items: AsyncIterable<T>, map: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}

/** The branch and path of a file link `blobLink` made, from the part after its prefix; null when not one. */
export function splitBlobLink(rest: string): { branch: string; path: string; encodedPath: string } | null {
  const slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return null;
  const encodedPath = rest.slice(slash + 1);
  return {
    branch: decodeURIComponent(rest.slice(0, slash)),
    path: encodedPath.split("/").map(decodeURIComponent).join("/"),
    encodedPath,
  };
}

/**
 * One file fetched again at its branch's head (live sync): `fetchFile` asks the host's file call (a 404 is
 * `missing`), whose JSON carries the base64 `content` and the version in `versionField`.
 */
export async function refetchFile(
  fetchFile: (missing: string) => Promise<Response>,
  file: { url: string; branch: string; path: string; author: string },
  versionField: string,
): Promise<ConnectorDocument | ConnectorSkip> {
  const missing = `The file ${file.path} is no longer in the branch ${file.branch}.`;
  const answer = await (await fetchFile(missing)).json() as Record<string, unknown>;
  return fileDocument(base64Bytes(String(answer.content ?? "")), {
    key: file.path,
    title: file.path,
    url: file.url,
    version: String(answer[versionField] ?? ""),
    metadata: { docAuthor: file.author },
  });
}
