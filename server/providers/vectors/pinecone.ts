// Pinecone over its REST APIs: the control plane (api.pinecone.io) describes the index named in the settings
// (its host, dimension, metric and readiness); the data plane (the index's own host) holds one Pinecone namespace
// per Lectern namespace. The index is the admin's: Lectern never creates or deletes it. Plain fetch: the
// official SDK brings a generated client for two APIs of which seven calls are used.
//
// Record ids are `docId#chunkId`, so a document's vectors are found by id prefix (`/vectors/list`, serverless
// indexes) and deleted by id; a pod-based index, which cannot list, deletes by the doc_id metadata filter.
//
// Hybrid search: Pinecone ranks text only through sparse vectors, which Lectern's embedders do not make, so
// search is by vector only and the question's text is not used.
import { ProviderError } from "../../errors.ts";
import { batches, clampScore, parseMetadata, RemoteApi, type RemoteOptions } from "./remote.ts";
import type { SearchOptions, VectorHit, VectorRecord, VectorStore } from "./types.ts";

export const PINECONE_CONTROL_PLANE = "https://api.pinecone.io";
const API_VERSION = "2025-04";
/** Vectors per upsert request (Pinecone takes at most 1,000 and 2 MB). */
const UPSERT_BATCH = 100;
/** Ids per delete request (Pinecone's limit). */
const DELETE_BATCH = 1000;

export interface PineconeOptions extends RemoteOptions {
  apiKey: string;
  /** The index's name (PineConeIndex). */
  index: string;
  /** The control plane's address; Pinecone's own unless given (Pinecone Local, tests). */
  controlPlane?: string;
}

interface IndexModel {
  name: string;
  host: string;
  dimension?: number;
  metric?: string;
  status?: { ready?: boolean; state?: string };
}

interface Match {
  id: string;
  score?: number;
  metadata?: { doc_id?: string; text?: string; metadata?: string; lectern_id?: string };
}

export function openPineconeStore(options: PineconeOptions): VectorStore {
  const headers = { "Api-Key": options.apiKey, "X-Pinecone-API-Version": API_VERSION };
  const control = new RemoteApi("Pinecone", options.controlPlane ?? PINECONE_CONTROL_PLANE, headers, options);
  let described: Promise<{ data: RemoteApi; model: IndexModel }> | null = null;

  /** The index's data plane, described once (again after a failure). */
  function index(): Promise<{ data: RemoteApi; model: IndexModel }> {
    described ??= (async () => {
      const answer = await control.call<IndexModel>(
        "GET",
        `/indexes/${encodeURIComponent(options.index)}`,
        undefined,
        [404],
      );
      const model = answer.body;
      if (answer.status === 404 || !model?.host) {
        throw new ProviderError(
          `Pinecone has no index named "${options.index}". Create it (cosine metric, the embedder's dimension) in the Pinecone console, or correct PineConeIndex.`,
        );
      }
      if (model.status && model.status.ready === false) {
        throw new ProviderError(
          `The Pinecone index "${options.index}" is not ready yet (${model.status.state ?? "initializing"}).`,
        );
      }
      if (model.metric && model.metric !== "cosine" && model.metric !== "dotproduct") {
        throw new ProviderError(
          `The Pinecone index "${options.index}" uses the ${model.metric} metric; Lectern needs cosine (or dotproduct).`,
        );
      }
      // The control plane answers a bare host name; Pinecone Local answers one with its scheme.
      const host = /^https?:\/\//.test(model.host) ? model.host : `https://${model.host}`;
      return { data: new RemoteApi("Pinecone", host, headers, options), model };
    })();
    described.catch(() => {
      described = null;
    });
    return described;
  }

  async function stats(data: RemoteApi): Promise<Record<string, { vectorCount?: number }>> {
    const answer = await data.call<{ namespaces?: Record<string, { vectorCount?: number }> }>(
      "POST",
      "/describe_index_stats",
      {},
    );
    return answer.body?.namespaces ?? {};
  }

  /** The ids of a document's vectors (serverless), or null where listing is not supported (pod-based). */
  async function idsOf(data: RemoteApi, namespace: string, docId: string): Promise<string[] | null> {
    const ids: string[] = [];
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ namespace, prefix: `${docId}#`, limit: "100" });
      if (token) query.set("paginationToken", token);
      const answer = await data.call<{ vectors?: { id: string }[]; pagination?: { next?: string } }>(
        "GET",
        `/vectors/list?${query}`,
        undefined,
        [400, 404, 405],
      );
      if (answer.status === 404) return ids;
      if (answer.status !== 200) return null;
      ids.push(...(answer.body?.vectors ?? []).map((vector) => vector.id));
      token = answer.body?.pagination?.next;
    } while (token);
    return ids;
  }

  return {
    async upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return;
      const { data, model } = await index();
      const wrong = records.find((entry) => model.dimension && entry.vector.length !== model.dimension);
      if (wrong) {
        throw new ProviderError(
          `The Pinecone index "${options.index}" holds vectors of ${model.dimension} dimensions, but the embedder makes ${wrong.vector.length}. Use an index made for this embedder.`,
        );
      }
      for (const batch of batches(records, UPSERT_BATCH)) {
        await data.call("POST", "/vectors/upsert", {
          namespace,
          vectors: batch.map((entry) => ({
            id: `${entry.docId}#${entry.id}`,
            values: entry.vector,
            // Pinecone metadata holds flat values only: the citation fields travel as one JSON string.
            metadata: {
              lectern_id: entry.id,
              doc_id: entry.docId,
              text: entry.text,
              metadata: JSON.stringify(entry.metadata),
            },
          })),
        });
      }
    },

    async search(namespace: string, vector: number[], options: SearchOptions): Promise<VectorHit[]> {
      const { data } = await index();
      const answer = await data.call<{ matches?: Match[] }>("POST", "/query", {
        namespace,
        vector,
        topK: options.topK,
        includeMetadata: true,
        includeValues: false,
      });
      // Cosine: the score is the similarity. Dotproduct equals it for the unit vectors embedders make.
      return (answer.body?.matches ?? []).map((match) => ({
        id: match.metadata?.lectern_id ?? match.id.slice(match.id.indexOf("#") + 1),
        docId: String(match.metadata?.doc_id ?? ""),
        text: match.metadata?.text ?? "",
        metadata: parseMetadata(match.metadata?.metadata),
        score: clampScore(match.score),
      }));
    },

    async count(namespace: string) {
      const { data } = await index();
      return Number((await stats(data))[namespace]?.vectorCount ?? 0);
    },

    async deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return;
      const { data } = await index();
      const ids: string[] = [];
      for (const docId of docIds) {
        const found = await idsOf(data, namespace, docId);
        if (found === null) {
          await data.call("POST", "/vectors/delete", { namespace, filter: { doc_id: { $in: docIds } } }, [
            404,
          ]);
          return;
        }
        ids.push(...found);
      }
      for (const batch of batches(ids, DELETE_BATCH)) {
        await data.call("POST", "/vectors/delete", { namespace, ids: batch }, [404]);
      }
    },

    async dropNamespaces(prefix: string) {
      const { data } = await index();
      for (const namespace of Object.keys(await stats(data))) {
        if (!namespace.startsWith(prefix)) continue;
        await data.call("POST", "/vectors/delete", { namespace, deleteAll: true }, [404]);
      }
    },

    close() {
      described = null;
      return Promise.resolve();
    },
  };
}
