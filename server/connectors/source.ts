import type { Logger } from "../log.ts";

/**
 * What every data connector (GitHub, GitLab, YouTube transcript, website crawl, Confluence) gives the import:
 * documents one at a time, so an import never holds a whole repository or site in memory. The import
 * (`server/connectors/import.ts`) stores them in the library folder the source names, counts progress, skips
 * unchanged documents on a second import and removes what it wrote when the source fails.
 */
export interface ConnectorDocument {
  /** Stable key within the source (file path, page id, video id, page URL): a second import matches on it. */
  key: string;
  /** The title shown in the library, e.g. `src/main.ts` or `Space › Parent › Page`. */
  title: string;
  /** The document's text (Markdown for pages, the file's text for code). */
  text: string;
  /** Where it came from: the file at its branch, the page, the video. Live sync re-fetches from it. */
  url: string;
  /** Changes when the document changes (blob sha, page version, content hash): equal means unchanged. */
  version: string;
  /** Shown with the document and given to the model as the reference's document metadata. */
  metadata?: { docAuthor?: string; description?: string; published?: string };
}

/** A file or page the source found and left out (binary, too large, ignored), counted in the progress. */
export interface ConnectorSkip {
  skip: string;
  /** A sentence, e.g. "Binary file." */
  why: string;
}

/** What a source may use: a fetch that already goes through the URL guard, the import's signal and the log. */
export interface ConnectorContext {
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  signal: AbortSignal;
  log: Logger;
}

/** A failure the person can act on; its message (a sentence) is the call's `reason` and the toast. */
export class ConnectorError extends Error {
  override name = "ConnectorError";
}

/** What live sync gives a source to fetch one of its documents again. */
export interface RefetchInput {
  /** The document's `url` (the file at its branch, the page, the video). */
  url: string;
  /** The document's `key` in its source. */
  key: string;
  /** The import's `syncParams` (no secrets), kept in the document's index row. */
  params: Record<string, string | boolean>;
  /** The import's `credentials`, kept encrypted (server/connectors/credentials.ts); null when there were none. */
  credentials: Record<string, string> | null;
}

export interface ConnectorSource<Options> {
  /** The route's name: `github`, `gitlab`, `youtube`, `website-depth`, `confluence`. */
  id: string;
  /** The library folder the documents go to, e.g. `owner-repo-main`. */
  folder(options: Options): string;
  /** The documents, one at a time; throws `ConnectorError` for a source that cannot be read. */
  documents(options: Options, context: ConnectorContext): AsyncIterable<ConnectorDocument | ConnectorSkip>;
  /** The settings (never a secret) `refetch` needs besides the document's link, e.g. the caption language. */
  syncParams?(options: Options): Record<string, string | boolean>;
  /** The secrets `refetch` needs (an access token), kept encrypted for live sync; null when there are none. */
  credentials?(options: Options): Record<string, string> | null;
  /** One document again from its source (live sync); throws `ConnectorError` when it cannot be read. */
  refetch?(input: RefetchInput, context: ConnectorContext): Promise<ConnectorDocument | ConnectorSkip>;
}
