// Qdrant over its REST API (https://api.qdrant.tech): one collection per namespace, cosine distance, the chunk's
// fields in the point's payload. Plain fetch: the official @qdrant/js-client-rest adds an OpenAPI runtime for the
// seven calls used here.
//
// Hybrid search: Qdrant ranks full text only through sparse vectors, which Lectern's embedders do not make, so
// search is by vector only and the question's text is not used.
import { ProviderError } from "../../errors.ts";
import { batches, clampScore, parseMetadata, RemoteApi, type RemoteOptions, uuidOf } from "./remote.ts";
import type { SearchOptions, VectorHit, VectorRecord, VectorStore } from "./types.ts";

/** Points per upsert request (Qdrant's default request limit is 32 MB; 256 × 3072 floats stays well under). */
const BATCH = 256;

export interface QdrantOptions extends RemoteOptions {
  /** The server's REST address, e.g. http://localhost:6333 (or a Qdrant Cloud cluster URL). */
  endpoint: string;
  /** Sent as the api-key header when set. */
  apiKey?: string;
}

interface Point {
  id: string | number;
  score?: number;
  payload?: { doc_id?: string; text?: string; metadata?: unknown; lectern_id?: string } | null;
}

const path = (namespace: string) => `/collections/${encodeURIComponent(namespace)}`;

export function openQdrantStore(options: QdrantOptions): VectorStore {
  const api = new RemoteApi(
    "Qdrant",
    options.endpoint,
    options.apiKey ? { "api-key": options.apiKey } : {},
    options,
  );
  const known = new Set<string>();

  async function exists(namespace: string): Promise<boolean> {
    if (known.has(namespace)) return true;
    const answer = await api.call<{ status?: { error?: string } }>("GET", path(namespace), undefined, [404]);
    if (answer.status === 404) {
      // Qdrant names the missing collection; any other 404 means the address is not Qdrant's REST API.
      if (/doesn't exist|not found/i.test(answer.body?.status?.error ?? "")) return false;
      throw new ProviderError(
        `Qdrant at ${api.endpoint} answered 404 without naming a collection; check that it is Qdrant's REST address (port 6333 by default).`,
        404,
      );
    }
    known.add(namespace);
    return true;
  }

  async function ensure(namespace: string, dimensions: number): Promise<void> {
    if (await exists(namespace)) return;
    const made = await api.call<{ status?: { error?: string } }>(
      "PUT",
      path(namespace),
      { vectors: { size: dimensions, distance: "Cosine" } },
      [409],
    );
    if (made.status !== 409) {
      // Deleting by document filters on doc_id: an index keeps that quick on large collections.
      await api.call("PUT", `${path(namespace)}/index?wait=true`, {
        field_name: "doc_id",
        field_schema: "keyword",
      });
    }
    known.add(namespace);
  }

  /** Runs a call on a collection; one removed behind Lectern's back answers `missing`. */
  async function onCollection<T>(namespace: string, work: () => Promise<T>, missing: T): Promise<T> {
    if (!(await exists(namespace))) return missing;
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProviderError && error.status === 404) {
        known.delete(namespace);
        return missing;
      }
      throw error;
    }
  }

  return {
    async upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return;
      await ensure(namespace, records[0].vector.length);
      for (const batch of batches(records, BATCH)) {
        await api.call("PUT", `${path(namespace)}/points?wait=true`, {
          points: batch.map((record) => ({
            id: uuidOf(record.id),
            vector: record.vector,
            payload: {
              lectern_id: record.id,
              doc_id: record.docId,
              text: record.text,
              metadata: record.metadata,
            },
          })),
        }).catch((error) => {
          if (error instanceof ProviderError && error.status === 404) known.delete(namespace);
          throw error;
        });
      }
    },

    search(namespace: string, vector: number[], options: SearchOptions): Promise<VectorHit[]> {
      return onCollection(namespace, async () => {
        const answer = await api.call<{ result: Point[] }>("POST", `${path(namespace)}/points/search`, {
          vector,
          limit: options.topK,
          with_payload: true,
        });
        return (answer.body?.result ?? []).map((point) => ({
          id: point.payload?.lectern_id ?? String(point.id),
          docId: String(point.payload?.doc_id ?? ""),
          text: point.payload?.text ?? "",
          metadata: parseMetadata(point.payload?.metadata),
          score: clampScore(point.score),
        }));
      }, []);
    },

    count(namespace: string) {
      return onCollection(namespace, async () => {
        const answer = await api.call<{ result: { count: number } }>(
          "POST",
          `${path(namespace)}/points/count`,
          { exact: true },
        );
        return Number(answer.body?.result?.count ?? 0);
      }, 0);
    },

    async deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return;
      await onCollection(namespace, async () => {
        await api.call("POST", `${path(namespace)}/points/delete?wait=true`, {
          filter: { must: [{ key: "doc_id", match: { any: docIds } }] },
        });
      }, undefined);
    },

    async dropNamespaces(prefix: string) {
      const answer = await api.call<{ result: { collections: { name: string }[] } }>("GET", "/collections");
      for (const { name } of answer.body?.result?.collections ?? []) {
        if (!name.startsWith(prefix)) continue;
        known.delete(name);
        await api.call("DELETE", path(name), undefined, [404]);
      }
    },

    close() {
      known.clear();
      return Promise.resolve();
    },
  };
}
