import { ChromaClient, type ChromaOptions, type QueryAnswer } from "./chroma/client.ts";
import {
  type SearchOptions,
  similarityOf,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
} from "./types.ts";

export { chromaAuthHeaders, type ChromaOptions } from "./chroma/client.ts";

/** A batch of records as Chroma stores them. */
function chromaRecords(batch: VectorRecord[]) {
  return {
    ids: batch.map((record) => record.id),
    embeddings: batch.map((record) => record.vector),
    documents: batch.map((record) => record.text),
    // Chroma metadata holds flat scalars only: the citation fields travel as one JSON string.
    metadatas: batch.map((record) => ({
      doc_id: record.docId,
      metadata: JSON.stringify(record.metadata),
    })),
  };
}

/** The hits of a query's answer (one query vector), best first. */
function hitsOf(answer: QueryAnswer): VectorHit[] {
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
}

/**
 * Chroma over its HTTP API v2 (chroma/client.ts), one collection per namespace in cosine space. Chroma has no
 * BM25 index: search is by vector only and the query text is not used.
 */
export function openChromaStore(options: ChromaOptions): VectorStore {
  const chroma = new ChromaClient(options);
  return {
    async upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return;
      const size = await chroma.maxBatch();
      await chroma.withCollection(namespace, true, async (found) => {
        for (let start = 0; start < records.length; start += size) {
          await chroma.upsert(found, chromaRecords(records.slice(start, start + size)));
        }
      }, undefined);
    },

    search(namespace: string, vector: number[], options: SearchOptions): Promise<VectorHit[]> {
      return chroma.withCollection(
        namespace,
        false,
        async (found) => hitsOf(await chroma.query(found, vector, options.topK)),
        [],
      );
    },

    count(namespace: string) {
      return chroma.withCollection(namespace, false, (found) => chroma.count(found), 0);
    },

    async deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return;
      await chroma.withCollection(
        namespace,
        false,
        (found) => chroma.deleteDocuments(found, docIds),
        undefined,
      );
    },

    async dropNamespaces(prefix: string) {
      const names = await chroma.collectionNames();
      for (const name of names.filter((candidate) => candidate.startsWith(prefix))) {
        await chroma.deleteCollection(name);
      }
    },

    close() {
      chroma.forget();
      return Promise.resolve();
    },
  };
}
