import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { AppError, fail } from "../errors.ts";
import { guardedFetch, type UrlGuardOptions } from "../http/url_guard.ts";
import { documentFileStem } from "../workspaces/slug.ts";
import type { StoredDocument, UploadMetadata } from "../../shared/api/documents.ts";
import { parseFile, parseLimits } from "./parse_worker.ts";
import { type ParsedDocument, ParseFailure } from "./parsers/types.ts";
import type { DocumentStore } from "./store.ts";
import { ACCEPTED_EXTENSIONS, extensionForMime, extensionOf, looksLikeText } from "./text.ts";
import { transcribeUpload } from "../speech/transcribe.ts";
import { sniffMedia } from "../speech/media.ts";
import { MEDIA_DOCUMENT_TYPES, MEDIA_EXTENSIONS } from "../../shared/providers/audio_catalog.ts";

/** A page or file must arrive within this long, body included. */
export const LINK_TIMEOUT_MS = 30_000;

// Some sites answer scripts with an error page; a browser's User-Agent gets the page readers see.
const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Lectern";

/** What fetching a link uses: the upload and parser limits, the log, and how links are fetched. */
export interface LinkDeps {
  config: Config;
  log: Logger;
  /** The address guard's options and the fetch to use (tests pass a resolver and a fetch). */
  linkFetch?: UrlGuardOptions & { fetch?: typeof fetch };
}

export interface LinkDocument {
  /** The normalised link (`https://` added when there is no scheme, no trailing `/`). */
  url: string;
  /** `page`: HTML made readable; `file`: a document type served as a file (PDF, DOCX …). */
  kind: "page" | "file";
  /** The title the stored document gets: `<slug>.html` for a page, `<slug>` with the file's extension else. */
  title: string;
  /** The page's own title (`<title>`, the article's headline, the PDF's metadata), when it has one. */
  pageTitle: string | null;
  /** Text and metadata, as the parser of the content's type read them. */
  parsed: ParsedDocument;
}

const notValid = () => new AppError("invalid_input", "Not a valid URL.");

/** Adds `https://` when the link has no scheme and checks it is an http(s) URL; anything else is refused. */
export function normalizeLink(raw: string): URL {
  const trimmed = raw.trim();
  if (!trimmed || /\s/.test(trimmed)) throw notValid();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(\/|$)/.test(trimmed)
    ? trimmed
    : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw notValid();
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) throw notValid();
  return url;
}

/** The display form of a link: the URL without a trailing `/`. */
export function linkText(url: URL): string {
  return url.href.replace(/\/$/, "");
}

/** `example.com_docs_page` for `https://example.com/docs/page/` (docs/api-compat.md#link-documents). */
export function linkSlug(url: URL): string {
  const path = decodeURIComponentSafe(url.pathname).replace(/\/+$/, "").replace(/\//g, "_");
  return documentFileStem(`${url.hostname}${path}`).replace(/[_.-]+$/, "") || "link";
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A fetched link's body within `limit` bytes (the upload limit): a larger one is refused by its declared length
 * before it is read, or as soon as it passes the limit. `link` names it in the refusal.
 */
export async function readLinkBody(response: Response, limit: number, link: string): Promise<Uint8Array> {
  const tooLarge = () =>
    new AppError(
      "too_large",
      `The content at ${link} is larger than the upload limit of ${Math.round(limit / 1024 / 1024)} MB.`,
    );
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
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

function unreachable(link: string, error: unknown): AppError {
  const name = (error as Error)?.name;
  const reason = name === "TimeoutError" || name === "AbortError"
    ? `no answer within ${LINK_TIMEOUT_MS / 1000} s`
    : ((error as Error)?.message ?? String(error)).replace(/\.$/, "");
  return new AppError("provider_failed", `Could not reach ${link}: ${reason}.`);
}

/**
 * Fetches a link through the URL guard (private, loopback, link-local and metadata addresses refused, each
 * redirect checked again) within the upload size limit and LINK_TIMEOUT_MS, and parses it in the parse worker:
 * HTML as readable Markdown, a document type (by Content-Type, else by the path's extension) as that file.
 * Throws AppError with the message to show: "Not a valid URL.", the guard's refusal, "Could not reach …",
 * "No URL content found at …".
 *
 * Live sync calls this to re-fetch a watched link and compare the text.
 */
export async function fetchLinkDocument(
  deps: LinkDeps,
  rawLink: string,
  options: {
    headers?: Record<string, string>;
    /**
     * Where audio and video (`audio/*`, `video/*`) are transcribed, as uploads are; without it such a link is
     * refused (live sync does not transcribe a recording again).
     */
    media?: MediaDeps;
  } = {},
): Promise<LinkDocument> {
  const url = normalizeLink(rawLink);
  const link = linkText(url);
  const signal = AbortSignal.timeout(LINK_TIMEOUT_MS);
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await guardedFetch(url.href, {
      signal,
      headers: {
        "User-Agent": USER_AGENT,
        Accept: "text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.8",
        // The developer API's `scraperHeaders` (a page behind a token, say).
        ...options.headers,
      },
    }, deps.linkFetch ?? {});
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new AppError(
        "provider_failed",
        `Could not reach ${link}: the server answered ${response.status}${
          response.statusText ? ` ${response.statusText}` : ""
        }.`,
      );
    }
    bytes = await readLinkBody(response, deps.config.maxUploadBytes, link);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreachable(link, error);
  }

  return await linkDocumentFromBytes(deps, url, response.headers.get("content-type"), bytes, options);
}

/**
 * A fetched link's body as a document: audio and video transcribed (with `options.media`), HTML made readable
 * Markdown, a document type parsed as that file, in the parse worker. The website crawl
 * (server/connectors/sources/website.ts) fetches its pages itself and reads each one here, as the link upload
 * does. Throws AppError with the message to show.
 */
export async function linkDocumentFromBytes(
  deps: Pick<LinkDeps, "config" | "log">,
  url: URL,
  contentType: string | null,
  bytes: Uint8Array,
  options: { media?: MediaDeps } = {},
): Promise<LinkDocument> {
  const link = linkText(url);
  const mime = (contentType ?? "").split(";")[0].trim().toLowerCase();
  const pathExtension = extensionOf(url.pathname);
  const media = mediaExtension(mime, pathExtension, bytes);
  if (media && options.media) {
    if (bytes.length === 0) fail("invalid_input", `No URL content found at ${link}.`);
    const slug = linkSlug(url);
    const title = slug.toLowerCase().endsWith(media) ? slug : `${slug}${media}`;
    // The same checks, decoding and provider as an uploaded recording (server/speech/transcribe.ts).
    const parsed = await transcribeUpload(options.media, title, bytes);
    return { url: link, kind: "file", title, pageTitle: null, parsed };
  }
  let extension = mime && mime !== "application/octet-stream" ? extensionForMime(mime) : null;
  if (!extension && ACCEPTED_EXTENSIONS.has(pathExtension)) extension = pathExtension;
  if (!extension && (mime.startsWith("text/") || !mime) && looksLikeText(bytes)) extension = ".txt";
  if (!extension) {
    fail(
      "invalid_input",
      `${link} serves ${mime || "content of an unknown type"}, which Lectern cannot read.`,
    );
  }
  if (bytes.length === 0) fail("invalid_input", `No URL content found at ${link}.`);

  const kind = extension === ".html" || extension === ".htm" ? "page" : "file";
  const slug = linkSlug(url);
  const title = kind === "page"
    ? `${slug}.html`
    : slug.toLowerCase().endsWith(extension)
    ? slug
    : `${slug}${extension}`;
  let parsed: ParsedDocument;
  try {
    parsed = await parseFile(
      { name: title, bytes, contentType: contentType ?? undefined },
      parseLimits(deps.config),
      deps.log,
    );
  } catch (error) {
    if (error instanceof ParseFailure) {
      fail("invalid_input", error.kind === "empty" ? `No URL content found at ${link}.` : error.message);
    }
    throw error;
  }
  return { url: link, kind, title, pageTitle: parsed.innerTitle ?? null, parsed };
}

/** What transcribing a linked recording uses. */
export type MediaDeps = Parameters<typeof transcribeUpload>[0];

/**
 * The extension a linked recording is transcribed as: by its Content-Type (`audio/*`, `video/*`), or by the
 * path's extension when the type says nothing (`application/octet-stream`); the container the bytes name
 * decides for a type Lectern has no extension for. Null when the link is not audio or video.
 */
function mediaExtension(mime: string, pathExtension: string, bytes: Uint8Array): string | null {
  const isMedia = mime.startsWith("audio/") || mime.startsWith("video/");
  const untyped = !mime || mime === "application/octet-stream";
  if (!isMedia && !(untyped && MEDIA_EXTENSIONS.has(pathExtension))) return null;
  const byType = MEDIA_DOCUMENT_TYPES[mime]?.[0];
  if (byType) return byType;
  if (MEDIA_EXTENSIONS.has(pathExtension)) return pathExtension;
  const container = sniffMedia(bytes);
  if (container === "mp4") return mime.startsWith("video/") ? ".mp4" : ".m4a";
  // Not a container Lectern transcribes: the name keeps the path's extension, and the refusal says so.
  return container ? `.${container}` : pathExtension || ".media";
}

/**
 * Stores a fetched link as a document with the link fields of docs/api-compat.md#document-json; `metadata` (the
 * developer API's) replaces the title, author, description and source. The chunk source stays the link, which
 * live sync fetches again.
 */
export function saveLinkDocument(
  deps: { documents: Pick<DocumentStore, "save"> },
  fetched: LinkDocument,
  metadata: Pick<UploadMetadata, "title" | "docAuthor" | "description" | "docSource"> = {},
): Promise<StoredDocument> {
  const { parsed } = fetched;
  // Pages get the reference's link defaults; a file keeps the author and description its metadata names.
  const fromPage = fetched.kind === "page";
  return deps.documents.save({
    fileStem: `url-${fetched.title.replace(/\.html$/, "")}`,
    title: metadata.title ?? fetched.title,
    url: `file://${fetched.title}`,
    docAuthor: metadata.docAuthor ??
      (fromPage || parsed.docAuthor === "Unknown" ? "no author found" : parsed.docAuthor),
    description: metadata.description ??
      (fromPage
        ? (parsed.description !== "Unknown" ? parsed.description : "No description found.")
        : parsed.description),
    docSource: metadata.docSource ?? "URL link uploaded by the user.",
    chunkSource: `link://${fetched.url}`,
    text: parsed.text,
    pageBreaks: parsed.pageBreaks,
    sourceUrl: fetched.url,
  });
}
