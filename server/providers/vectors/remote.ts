// The HTTP side shared by the vector database adapters that run as their own server or service (Qdrant,
// Pinecone, Weaviate, Milvus, Zilliz, Astra DB): one JSON request per call, through the URL guard, with every
// failure turned into a ProviderError whose message is a sentence naming the database and its address.
import { createHash } from "../../hash.ts";
import { messageOf, ProviderError } from "../../errors.ts";
import { guardedFetch, type UrlGuardOptions } from "../../http/url_guard.ts";

const TIMEOUT_MS = 30_000;

export interface RemoteOptions {
  /** Tests may pass their own. */
  fetch?: typeof fetch;
  resolve?: UrlGuardOptions["resolve"];
  timeoutMs?: number;
}

export interface RemoteAnswer<T> {
  status: number;
  body: T;
}

/** `text` with the closing period a sentence needs. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.?!]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What an error answer says, whichever of the usual shapes it has. */
export function detailOf(parsed: unknown, text: string): string {
  const body = parsed as Record<string, unknown> | null;
  const first = (value: unknown) => Array.isArray(value) ? value[0] : value;
  const candidates = [
    body?.message,
    (first(body?.errors) as { message?: unknown } | undefined)?.message,
    (first(body?.error) as { message?: unknown } | undefined)?.message,
    body?.error,
    (body?.status as { error?: unknown } | undefined)?.error,
    body?.detail,
  ];
  const found = candidates.find((value) => typeof value === "string" && value.trim() !== "");
  return ((found as string | undefined) ?? text.replace(/\s+/g, " ").slice(0, 200)).trim() || "no details";
}

/** The message of a refused key, the same for every adapter. */
export function refusedMessage(service: string, endpoint: string, status: number | string, detail: string) {
  return `${service} at ${endpoint} refused the credentials (${status}): ${
    sentence(detail)
  } Check the API key or token in the vector database settings.`;
}

/**
 * A point id the engine takes: Qdrant and Weaviate want UUIDs. Lectern's chunk ids are UUIDs already; any
 * other id is turned into a stable UUID-shaped hash (the original travels in the payload).
 */
export function uuidOf(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return id.toLowerCase();
  const hex = createHash("sha256").update(id).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`;
}

/** Citation fields kept as one JSON string where the engine holds flat values only. */
export function parseMetadata(value: unknown): Record<string, unknown> {
  if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value !== "string") return {};
  try {
    const parsed = JSON.parse(value);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {}; // a record written by another tool: cited without document fields
  }
}

/** `items` in slices of at most `size`. */
export function* batches<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/** A similarity that is already a cosine (Qdrant, Pinecone, Milvus), clamped to [0, 1] like `similarityOf`. */
export function clampScore(score: unknown): number {
  const value = Number(score);
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/**
 * One remote database. The address is the admin's own (a server on the LAN, or the vendor's cloud), so
 * loopback and private addresses are allowed through the URL guard, as for Chroma.
 */
export class RemoteApi {
  readonly endpoint: string;

  constructor(
    readonly service: string,
    endpoint: string,
    private readonly headers: Record<string, string>,
    private readonly options: RemoteOptions,
  ) {
    this.endpoint = endpoint.trim().replace(/\/+$/, "");
  }

  /**
   * One JSON call to `path` (relative to the endpoint, or a full address). Statuses in `accept` come back to
   * the caller; any other failure is thrown as a ProviderError.
   */
  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    accept: number[] = [],
  ): Promise<RemoteAnswer<T>> {
    const url = /^https?:\/\//.test(path) ? path : `${this.endpoint}${path}`;
    let response: Response;
    try {
      response = await guardedFetch(url, {
        method,
        headers: { "content-type": "application/json", accept: "application/json", ...this.headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? TIMEOUT_MS),
      }, { allowPrivate: true, fetch: this.options.fetch, resolve: this.options.resolve });
    } catch (error) {
      throw new ProviderError(
        `Cannot reach ${this.service} at ${this.endpoint}: ${sentence(messageOf(error))}`,
        undefined,
        { cause: error },
      );
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // a proxy's HTML error page: its status says enough
    }
    if (response.ok || accept.includes(response.status)) {
      return { status: response.status, body: parsed as T };
    }
    throw this.failure(response.status, detailOf(parsed, text));
  }

  /** The error of a failed answer: a refused key says so. */
  failure(status: number | string, detail: string): ProviderError {
    if (status === 401 || status === 403) {
      return new ProviderError(refusedMessage(this.service, this.endpoint, status, detail), Number(status));
    }
    return new ProviderError(
      `${this.service} at ${this.endpoint} answered ${status}: ${sentence(detail)}`,
      typeof status === "number" ? status : 502,
    );
  }
}
