// Astra DB over its Data API (JSON commands POSTed to /api/json/v1/{keyspace}[/{collection}]): one vector-enabled
// collection per namespace, cosine metric, the chunk's fields in the document (text and metadata left out of
// the index: Astra indexes strings up to 8 KB only). Plain fetch: @datastax/astra-db-ts is a large client for
// the nine commands used here.
//
// Astra's cosine $similarity is (1 + cos) / 2; the adapter turns it back into the cosine, so the threshold
// means the same as with every other store. countDocuments stops at 1,000: past that the count is Astra's
// estimate.
//
// Hybrid search: Astra's lexical ranking (findAndRerank) needs a collection made with its lexical and reranking
// services, which Lectern does not assume, so search is by vector only and the question's text is not used.
import { ProviderError } from "../../errors.ts";
import {
  batches,
  clampScore,
  parseMetadata,
  refusedMessage,
  RemoteApi,
  type RemoteOptions,
  sentence,
} from "./remote.ts";
import type { SearchOptions, VectorHit, VectorRecord, VectorStore } from "./types.ts";

export const ASTRA_KEYSPACE = "default_keyspace";
/** Documents per insertMany (the Data API takes at most 100; vectors make each one large). */
const BATCH = 20;

export interface AstraOptions extends RemoteOptions {
  /** The database's API endpoint, e.g. https://<id>-<region>.apps.astra.datastax.com. */
  endpoint: string;
  /** The application token (AstraCS:…). */
  token: string;
  keyspace?: string;
}

interface Command<T> {
  data?: T;
  status?: Record<string, unknown>;
  errors?: { message?: string; errorCode?: string }[];
}

/** A collection name Astra takes: a letter first, then letters, digits and underscores (48 at most). */
export function astraCollection(namespace: string): string {
  const clean = namespace.replace(/[^A-Za-z0-9_]/g, "_");
  return (/^[A-Za-z]/.test(clean) ? clean : `ns_${clean}`).slice(0, 48);
}

class MissingCollection extends Error {}

export function openAstraStore(options: AstraOptions): VectorStore {
  const keyspace = options.keyspace ?? ASTRA_KEYSPACE;
  const api = new RemoteApi("Astra DB", options.endpoint, { token: options.token }, options);
  const known = new Set<string>();

  async function command<T>(collection: string | null, body: Record<string, unknown>): Promise<Command<T>> {
    const path = `/api/json/v1/${encodeURIComponent(keyspace)}${collection ? `/${collection}` : ""}`;
    const answer = (await api.call<Command<T>>("POST", path, body)).body ?? {};
    const error = answer.errors?.[0];
    if (!error) return answer;
    const message = error.message ?? error.errorCode ?? "unknown error";
    if (error.errorCode === "COLLECTION_NOT_EXIST") throw new MissingCollection(message);
    if (/UNAUTHENTICATED|UNAUTHORIZED/.test(error.errorCode ?? "")) {
      throw new ProviderError(refusedMessage("Astra DB", api.endpoint, error.errorCode!, message), 401);
    }
    throw new ProviderError(
      `Astra DB at ${api.endpoint} refused ${Object.keys(body)[0]}: ${sentence(message)}`,
    );
  }

  async function names(): Promise<string[]> {
    const answer = await command<never>(null, { findCollections: {} });
    return ((answer.status?.collections ?? []) as (string | { name: string })[]).map((entry) =>
      typeof entry === "string" ? entry : entry.name
    );
  }

  async function exists(name: string): Promise<boolean> {
    if (known.has(name)) return true;
    if (!(await names()).includes(name)) return false;
    known.add(name);
    return true;
  }

  /** Runs commands on a collection; one removed behind Lectern's back answers `missing`. */
  async function onCollection<T>(name: string, work: () => Promise<T>, missing: T): Promise<T> {
    if (!(await exists(name))) return missing;
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof MissingCollection)) throw error;
      known.delete(name);
      return missing;
    }
  }

  async function write(name: string, records: VectorRecord[]): Promise<void> {
    for (const batch of batches(records, BATCH)) {
      // insertMany refuses an _id that exists: the batch's ids are removed first, which makes it an upsert.
      await command(name, { deleteMany: { filter: { _id: { $in: batch.map((entry) => entry.id) } } } });
      await command(name, {
        insertMany: {
          documents: batch.map((entry) => ({
            _id: entry.id,
            $vector: entry.vector,
            doc_id: entry.docId,
            text: entry.text,
            metadata: entry.metadata,
          })),
          options: { ordered: false },
        },
      });
    }
  }

  return {
    async upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return;
      const name = astraCollection(namespace);
      for (let attempt = 0;; attempt++) {
        if (!(await exists(name))) {
          await command(null, {
            createCollection: {
              name,
              options: {
                vector: { dimension: records[0].vector.length, metric: "cosine" },
                indexing: { deny: ["text", "metadata"] },
              },
            },
          });
          known.add(name);
        }
        try {
          return await write(name, records);
        } catch (error) {
          if (!(error instanceof MissingCollection) || attempt > 0) {
            if (error instanceof MissingCollection) {
              throw new ProviderError(`Astra DB at ${api.endpoint} lost the collection ${name}.`, 404);
            }
            throw error;
          }
          known.delete(name);
        }
      }
    },

    search(namespace: string, vector: number[], search: SearchOptions): Promise<VectorHit[]> {
      const name = astraCollection(namespace);
      return onCollection(name, async () => {
        const answer = await command<{ documents?: Record<string, unknown>[] }>(name, {
          find: {
            sort: { $vector: vector },
            projection: { $vector: 0 },
            options: { limit: search.topK, includeSimilarity: true },
          },
        });
        return (answer.data?.documents ?? []).map((document) => ({
          id: String(document._id),
          docId: String(document.doc_id ?? ""),
          text: String(document.text ?? ""),
          metadata: parseMetadata(document.metadata),
          score: clampScore(2 * Number(document.$similarity) - 1),
        }));
      }, []);
    },

    count(namespace: string) {
      const name = astraCollection(namespace);
      return onCollection(name, async () => {
        const exact = await command(name, { countDocuments: {} });
        if (!exact.status?.moreData) return Number(exact.status?.count ?? 0);
        const estimate = await command(name, { estimatedDocumentCount: {} });
        return Number(estimate.status?.count ?? 0);
      }, 0);
    },

    async deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return;
      const name = astraCollection(namespace);
      await onCollection(name, async () => {
        for (const batch of batches(docIds, 100)) {
          // deleteMany removes a limited number per call and says moreData while some are left.
          for (;;) {
            const answer = await command(name, { deleteMany: { filter: { doc_id: { $in: batch } } } });
            if (!answer.status?.moreData) break;
          }
        }
      }, undefined);
    },

    async dropNamespaces(prefix: string) {
      const start = prefix ? astraCollection(prefix) : "";
      for (const name of (await names()).filter((candidate) => candidate.startsWith(start))) {
        known.delete(name);
        await command(null, { deleteCollection: { name } });
      }
    },

    close() {
      known.clear();
      return Promise.resolve();
    },
  };
}
