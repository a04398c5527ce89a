// Chroma's HTTP API v2 as the store uses it: one request per call, errors turned into ProviderErrors, the
// collection of each namespace looked up once.
import { messageOf, ProviderError } from "../../../errors.ts";
import { guardedFetch, type UrlGuardOptions } from "../../../http/url_guard.ts";

const TENANT = "default_tenant";
const DATABASE = "default_database";
/** Records per add request; Chroma announces its own maximum (pre-flight checks) and the smaller one wins. */
const MAX_BATCH = 500;
/** Collections listed per page when dropping a workspace's namespaces. */
const LIST_PAGE = 100;
const TIMEOUT_MS = 30_000;

export interface ChromaOptions {
  /** The server's base address, e.g. http://localhost:8000. */
  endpoint: string;
  /** The header that carries `apiKey` (X-Chroma-Token unless given; "Authorization" gets "Bearer "). */
  apiHeader?: string;
  apiKey?: string;
  fetch?: typeof fetch;
  resolve?: UrlGuardOptions["resolve"];
  timeoutMs?: number;
}

export interface Collection {
  id: string;
  name: string;
}

/** The records of one upsert request, column by column. */
export interface ChromaRecords {
  ids: string[];
  embeddings: number[][];
  documents: string[];
  metadatas: Record<string, string>[];
}

export interface QueryAnswer {
  ids: string[][];
  documents: (string | null)[][] | null;
  metadatas: (Record<string, unknown> | null)[][] | null;
  distances: (number | null)[][] | null;
}

/** The request headers for `apiKey`: a bare key for Authorization becomes a bearer token. */
export function chromaAuthHeaders(
  apiHeader: string | undefined,
  apiKey: string | undefined,
): Record<string, string> {
  if (!apiKey) return {};
  const header = apiHeader?.trim() || "X-Chroma-Token";
  const value = header.toLowerCase() === "authorization" && !/^\w+\s/.test(apiKey)
    ? `Bearer ${apiKey}`
    : apiKey;
  return { [header]: value };
}

/** Chroma's answer that a collection does not exist. */
class NotFound extends Error {}

/**
 * One Chroma server. The server is the admin's own, so loopback and private addresses are allowed through the
 * URL guard.
 */
export class ChromaClient {
  readonly endpoint: string;
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly collections = new Map<string, Collection>();
  private batchSize: number | null = null;

  constructor(private readonly options: ChromaOptions) {
    this.endpoint = options.endpoint.replace(/\/+$/, "");
    this.base = `${this.endpoint}/api/v2/tenants/${TENANT}/databases/${DATABASE}`;
    this.headers = {
      "content-type": "application/json",
      ...chromaAuthHeaders(options.apiHeader, options.apiKey),
    };
  }

  /** Records one upsert request may carry. */
  async maxBatch(): Promise<number> {
    if (this.batchSize !== null) return this.batchSize;
    const checks = await this.call<{ max_batch_size?: number }>(
      "GET",
      `${this.endpoint}/api/v2/pre-flight-checks`,
    ).catch(() => null);
    this.batchSize = Math.max(1, Math.min(MAX_BATCH, checks?.max_batch_size ?? MAX_BATCH));
    return this.batchSize;
  }

  /**
   * Runs `work` on the namespace's collection (made first when `create`; `missing` is the answer without one);
   * a collection removed behind Lectern's back is looked up again.
   */
  async withCollection<T>(
    namespace: string,
    create: boolean,
    work: (collection: Collection) => Promise<T>,
    missing: T,
  ): Promise<T> {
    for (let attempt = 0;; attempt++) {
      const found = await this.collection(namespace, create);
      if (!found) return missing;
      try {
        return await work(found);
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
        this.collections.delete(namespace);
        if (attempt > 0) {
          throw new ProviderError(`Chroma at ${this.endpoint} lost the collection ${namespace}.`, 404);
        }
      }
    }
  }

  async upsert(collection: Collection, records: ChromaRecords): Promise<void> {
    await this.call("POST", `${this.base}/collections/${collection.id}/upsert`, records);
  }

  query(collection: Collection, vector: number[], results: number): Promise<QueryAnswer> {
    return this.call<QueryAnswer>("POST", `${this.base}/collections/${collection.id}/query`, {
      query_embeddings: [vector],
      n_results: results,
      include: ["documents", "metadatas", "distances"],
    });
  }

  async count(collection: Collection): Promise<number> {
    return Number(await this.call<number>("GET", `${this.base}/collections/${collection.id}/count`));
  }

  async deleteDocuments(collection: Collection, docIds: string[]): Promise<void> {
    await this.call("POST", `${this.base}/collections/${collection.id}/delete`, {
      where: { doc_id: { $in: docIds } },
    });
  }

  /** The names of every collection, page by page. */
  async collectionNames(): Promise<string[]> {
    const names: string[] = [];
    for (let offset = 0;; offset += LIST_PAGE) {
      const page = await this.call<Collection[]>(
        "GET",
        `${this.base}/collections?limit=${LIST_PAGE}&offset=${offset}`,
      );
      names.push(...page.map((entry) => entry.name));
      if (page.length < LIST_PAGE) break;
    }
    return names;
  }

  /** Deletes a collection; one that is gone already is no error. */
  async deleteCollection(name: string): Promise<void> {
    this.collections.delete(name);
    await this.call("DELETE", `${this.base}/collections/${encodeURIComponent(name)}`).catch((error) => {
      if (!(error instanceof NotFound)) throw error;
    });
  }

  /** Forgets the collections looked up so far. */
  forget(): void {
    this.collections.clear();
  }

  private async collection(namespace: string, create: boolean): Promise<Collection | null> {
    const cached = this.collections.get(namespace);
    if (cached) return cached;
    let found: Collection;
    try {
      found = create
        ? await this.call<Collection>("POST", `${this.base}/collections`, {
          name: namespace,
          configuration: { hnsw: { space: "cosine" } },
          get_or_create: true,
        })
        : await this.call<Collection>("GET", `${this.base}/collections/${encodeURIComponent(namespace)}`);
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      if (!create) return null;
      throw new ProviderError(
        `Chroma at ${this.endpoint} has no tenant ${TENANT} with a database ${DATABASE}.`,
        404,
      );
    }
    this.collections.set(namespace, found);
    return found;
  }

  private async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await guardedFetch(url, {
        method,
        headers: this.headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? TIMEOUT_MS),
      }, { allowPrivate: true, fetch: this.options.fetch, resolve: this.options.resolve });
    } catch (error) {
      throw new ProviderError(`Cannot reach Chroma at ${this.endpoint}: ${messageOf(error)}`, undefined, {
        cause: error,
      });
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // a proxy's HTML error page: its status says enough
    }
    // Chroma names a missing collection NotFoundError; any other 404 means the address is not Chroma's API v2.
    if (response.status === 404 && (parsed as { error?: string } | null)?.error === "NotFoundError") {
      throw new NotFound(text);
    }
    if (!response.ok) {
      const detail = (parsed as { message?: string; error?: string } | null)?.message ??
        (parsed as { error?: string } | null)?.error ?? text.slice(0, 200);
      const hint = response.status === 404 ? " (is this a Chroma 1.x server with API v2?)" : "";
      throw new ProviderError(
        `Chroma at ${this.endpoint} answered ${response.status}: ${detail}${hint}`,
        response.status,
      );
    }
    return parsed as T;
  }
}
