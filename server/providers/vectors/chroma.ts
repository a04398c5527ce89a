import { messageOf, ProviderError } from "../../errors.ts";
import { guardedFetch, type UrlGuardOptions } from "../../http/url_guard.ts";
import {
  type SearchOptions,
  similarityOf,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
} from "./types.ts";

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

interface Collection {
  id: string;
  name: string;
}

interface QueryAnswer {
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

class NotFound extends Error {}

/**
 * Chroma over its HTTP API v2, one collection per namespace in cosine space. The server is the admin's own, so
 * loopback and private addresses are allowed through the URL guard. Chroma has no BM25 index: search is by
 * vector only and the query text is not used.
 */
export function openChromaStore(options: ChromaOptions): VectorStore {
  const endpoint = options.endpoint.replace(/\/+$/, "");
  const base = `${endpoint}/api/v2/tenants/${TENANT}/databases/${DATABASE}`;
  const headers = {
    "content-type": "application/json",
    ...chromaAuthHeaders(options.apiHeader, options.apiKey),
  };
  const collections = new Map<string, Collection>();
  let batchSize: number | null = null;

  async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await guardedFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
      }, { allowPrivate: true, fetch: options.fetch, resolve: options.resolve });
    } catch (error) {
      throw new ProviderError(`Cannot reach Chroma at ${endpoint}: ${messageOf(error)}`, undefined, {
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
        `Chroma at ${endpoint} answered ${response.status}: ${detail}${hint}`,
        response.status,
      );
    }
    return parsed as T;
  }

  async function collection(namespace: string, create: boolean): Promise<Collection | null> {
    const cached = collections.get(namespace);
    if (cached) return cached;
    let found: Collection;
    try {
      found = create
        ? await call<Collection>("POST", `${base}/collections`, {
          name: namespace,
          configuration: { hnsw: { space: "cosine" } },
          get_or_create: true,
        })
        : await call<Collection>("GET", `${base}/collections/${encodeURIComponent(namespace)}`);
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      if (!create) return null;
      throw new ProviderError(
        `Chroma at ${endpoint} has no tenant ${TENANT} with a database ${DATABASE}.`,
        404,
      );
    }
    collections.set(namespace, found);
    return found;
  }

  /** Runs `work` on the namespace's collection; a collection removed behind Lectern's back is looked up again. */
  async function withCollection<T>(
    namespace: string,
    create: boolean,
    work: (collection: Collection) => Promise<T>,
    missing: T,
  ): Promise<T> {
    for (let attempt = 0;; attempt++) {
      const found = await collection(namespace, create);
      if (!found) return missing;
      try {
        return await work(found);
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
        collections.delete(namespace);
        if (attempt > 0) {
          throw new ProviderError(`Chroma at ${endpoint} lost the collection ${namespace}.`, 404);
        }
      }
    }
  }

  async function maxBatch(): Promise<number> {
    if (batchSize !== null) return batchSize;
    const checks = await call<{ max_batch_size?: number }>("GET", `${endpoint}/api/v2/pre-flight-checks`)
      .catch(() => null);
    batchSize = Math.max(1, Math.min(MAX_BATCH, checks?.max_batch_size ?? MAX_BATCH));
    return batchSize;
  }

  return {
    async upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return;
      const size = await maxBatch();
      await withCollection(namespace, true, async (found) => {
        for (let start = 0; start < records.length; start += size) {
          const batch = records.slice(start, start + size);
          await call("POST", `${base}/collections/${found.id}/upsert`, {
            ids: batch.map((record) => record.id),
            embeddings: batch.map((record) => record.vector),
            documents: batch.map((record) => record.text),
            // Chroma metadata holds flat scalars only: the citation fields travel as one JSON string.
            metadatas: batch.map((record) => ({
              doc_id: record.docId,
              metadata: JSON.stringify(record.metadata),
            })),
          });
        }
      }, undefined);
    },

    search(namespace: string, vector: number[], options: SearchOptions): Promise<VectorHit[]> {
      return withCollection(namespace, false, async (found) => {
        const answer = await call<QueryAnswer>("POST", `${base}/collections/${found.id}/query`, {
          query_embeddings: [vector],
          n_results: options.topK,
          include: ["documents", "metadatas", "distances"],
        });
        const ids = answer.ids?.[0] ?? [];
        return ids.map((id, index) => {
          const metadata = answer.metadatas?.[0]?.[index] ?? {};
          let citation: Record<string, unknown> = {};
          try {
            citation = JSON.parse(String(metadata.metadata ?? "{}"));
          } catch {
            // a record written by another tool: cite it without document fields
          }
          return {
            id,
            docId: String(metadata.doc_id ?? ""),
            text: answer.documents?.[0]?.[index] ?? "",
            metadata: citation,
            score: similarityOf(Number(answer.distances?.[0]?.[index] ?? Infinity)),
          };
        });
      }, []);
    },

    count(namespace: string) {
      return withCollection(
        namespace,
        false,
        async (found) => Number(await call<number>("GET", `${base}/collections/${found.id}/count`)),
        0,
      );
    },

    async deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return;
      await withCollection(namespace, false, async (found) => {
        await call("POST", `${base}/collections/${found.id}/delete`, { where: { doc_id: { $in: docIds } } });
      }, undefined);
    },

    async dropNamespaces(prefix: string) {
      const names: string[] = [];
      for (let offset = 0;; offset += LIST_PAGE) {
        const page = await call<Collection[]>(
          "GET",
          `${base}/collections?limit=${LIST_PAGE}&offset=${offset}`,
        );
        names.push(...page.map((entry) => entry.name));
        if (page.length < LIST_PAGE) break;
      }
      for (const name of names.filter((candidate) => candidate.startsWith(prefix))) {
        collections.delete(name);
        await call("DELETE", `${base}/collections/${encodeURIComponent(name)}`).catch((error) => {
          if (!(error instanceof NotFound)) throw error;
        });
      }
    },

    close() {
      collections.clear();
      return Promise.resolve();
    },
  };
}
