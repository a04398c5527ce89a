// Milvus over its RESTful API v2 (/v2/vectordb/...), which Zilliz Cloud serves too (zilliz.ts): one collection per
// namespace with an explicit schema (id, vector, doc_id, text, metadata JSON), an AUTOINDEX in COSINE space and
// Strong consistency, so a count or search right after a write sees it. Plain fetch: the official
// @zilliz/milvus2-sdk-node speaks gRPC through native modules.
//
// Hybrid search: Milvus 2.5 can rank full text only through a BM25 function on a sparse field set up in the schema
// with an analyzer; Lectern keeps one schema for Milvus 2.4 and Zilliz alike, so search is by vector only and the
// question's text is not used.
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

/** Rows per upsert request. */
const BATCH = 100;
/** The longest chunk text stored, in bytes (Milvus's VarChar limit). */
const TEXT_BYTES = 65_535;

export interface MilvusOptions extends RemoteOptions {
  /** The server's address, e.g. http://localhost:19530. */
  endpoint: string;
  /** Milvus: "user:password" when authentication is on; Zilliz Cloud: the API key or cluster token. */
  token?: string;
  /** The name in messages (Milvus or Zilliz Cloud). */
  service?: string;
}

interface MilvusAnswer<T> {
  code?: number;
  message?: string;
  data?: T;
}

/** A collection name Milvus takes: letters, digits and underscores, not starting with a digit. */
export function milvusCollection(namespace: string): string {
  const clean = namespace.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(clean) ? clean : `_${clean}`;
}

/** Milvus filter literal of a string. */
const literal = (value: string) => JSON.stringify(value);

function truncated(text: string): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= TEXT_BYTES) return text;
  return new TextDecoder().decode(bytes.slice(0, TEXT_BYTES)).replace(/\uFFFD$/, "");
}

export function openMilvusStore(options: MilvusOptions): VectorStore {
  const service = options.service ?? "Milvus";
  const api = new RemoteApi(
    service,
    options.endpoint,
    options.token ? { authorization: `Bearer ${options.token}` } : {},
    options,
  );
  const known = new Set<string>();

  /** One call; Milvus answers 200 with a non-zero code on failure. */
  async function call<T>(path: string, body: Record<string, unknown>): Promise<T | undefined> {
    const answer = (await api.call<MilvusAnswer<T>>("POST", `/v2/vectordb/${path}`, body)).body ?? {};
    if (!answer.code) return answer.data;
    const message = answer.message ?? `code ${answer.code}`;
    if (/auth|token|credential|password|api key|permission denied|unauthori[sz]ed/i.test(message)) {
      throw new ProviderError(refusedMessage(service, api.endpoint, `code ${answer.code}`, message), 401);
    }
    if (/collection not found|can't find collection|collection.*not exist/i.test(message)) {
      throw new ProviderError(
        `${service} at ${api.endpoint} has no such collection: ${sentence(message)}`,
        404,
      );
    }
    throw api.failure(`code ${answer.code}`, message);
  }

  async function exists(name: string): Promise<boolean> {
    if (known.has(name)) return true;
    const answer = await call<{ has?: boolean }>("collections/has", { collectionName: name });
    if (!answer?.has) return false;
    known.add(name);
    return true;
  }

  async function ensure(name: string, dimensions: number): Promise<void> {
    if (await exists(name)) return;
    await call("collections/create", {
      collectionName: name,
      schema: {
        autoId: false,
        enableDynamicField: false,
        fields: [
          { fieldName: "id", dataType: "VarChar", isPrimary: true, elementTypeParams: { max_length: 64 } },
          { fieldName: "vector", dataType: "FloatVector", elementTypeParams: { dim: dimensions } },
          { fieldName: "doc_id", dataType: "VarChar", elementTypeParams: { max_length: 64 } },
          { fieldName: "text", dataType: "VarChar", elementTypeParams: { max_length: TEXT_BYTES } },
          { fieldName: "metadata", dataType: "JSON" },
        ],
      },
      indexParams: [{
        fieldName: "vector",
        indexName: "vector",
        metricType: "COSINE",
        indexType: "AUTOINDEX",
      }],
      params: { consistencyLevel: "Strong" },
    });
    known.add(name);
  }

  /** Runs a call on a collection; one removed behind Lectern's back answers `missing`. */
  async function onCollection<T>(name: string, work: () => Promise<T>, missing: T): Promise<T> {
    if (!(await exists(name))) return missing;
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProviderError && error.status === 404) {
        known.delete(name);
        return missing;
      }
      throw error;
    }
  }

  return {
    async upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return;
      const name = milvusCollection(namespace);
      await ensure(name, records[0].vector.length);
      for (const batch of batches(records, BATCH)) {
        await call("entities/upsert", {
          collectionName: name,
          data: batch.map((entry) => ({
            id: entry.id,
            vector: entry.vector,
            doc_id: entry.docId,
            text: truncated(entry.text),
            metadata: entry.metadata,
          })),
        }).catch((error) => {
          if (error instanceof ProviderError && error.status === 404) known.delete(name);
          throw error;
        });
      }
    },

    search(namespace: string, vector: number[], search: SearchOptions): Promise<VectorHit[]> {
      const name = milvusCollection(namespace);
      return onCollection(name, async () => {
        const rows = await call<Record<string, unknown>[]>("entities/search", {
          collectionName: name,
          data: [vector],
          annsField: "vector",
          limit: search.topK,
          outputFields: ["doc_id", "text", "metadata"],
          searchParams: { metricType: "COSINE" },
        });
        // COSINE: Milvus's "distance" is the cosine similarity, larger is closer.
        return (rows ?? []).map((row) => ({
          id: String(row.id),
          docId: String(row.doc_id ?? ""),
          text: String(row.text ?? ""),
          metadata: parseMetadata(row.metadata),
          score: clampScore(row.distance),
        }));
      }, []);
    },

    count(namespace: string) {
      const name = milvusCollection(namespace);
      return onCollection(name, async () => {
        const rows = await call<Record<string, unknown>[]>("entities/query", {
          collectionName: name,
          filter: "",
          outputFields: ["count(*)"],
        });
        return Number(rows?.[0]?.["count(*)"] ?? 0);
      }, 0);
    },

    async deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return;
      const name = milvusCollection(namespace);
      await onCollection(name, async () => {
        for (const batch of batches(docIds, 100)) {
          await call("entities/delete", {
            collectionName: name,
            filter: `doc_id in [${batch.map(literal).join(", ")}]`,
          });
        }
      }, undefined);
    },

    async dropNamespaces(prefix: string) {
      const start = prefix ? milvusCollection(prefix) : "";
      const names = await call<string[]>("collections/list", {}) ?? [];
      for (const name of names.filter((candidate) => candidate.startsWith(start))) {
        known.delete(name);
        await call("collections/drop", { collectionName: name });
      }
    },

    close() {
      known.clear();
      return Promise.resolve();
    },
  };
}
