// Weaviate over its REST API (schema, batch writes and deletes) and its GraphQL API (Get, Aggregate): one class
// per namespace (the name with its first letter capitalised, as Weaviate requires), no vectorizer (Lectern sends
// its own vectors), cosine distance. Plain fetch: the official weaviate-client's v3 talks gRPC, which Deno's fetch
// cannot carry, and the v2 client is a thin builder over these same calls.
//
// Hybrid search: Weaviate has a BM25 index, so with the question's text (a workspace with hybrid search) the
// search is Weaviate's hybrid query (BM25 and vector, fused by Weaviate, alpha 0.5); every hit's score is still
// its cosine similarity to the question, computed from the vector Weaviate returns, so the threshold judges the
// chunks found by words the same way.
import { ProviderError } from "../../errors.ts";
import { batches, parseMetadata, RemoteApi, type RemoteOptions, sentence, uuidOf } from "./remote.ts";
import {
  cosineSimilarity,
  type SearchOptions,
  similarityOf,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
} from "./types.ts";

/** Objects per batch request. */
const BATCH = 100;
/** The weight of the vector side in a hybrid search (0: BM25 only, 1: vector only). */
const HYBRID_ALPHA = 0.5;

export interface WeaviateOptions extends RemoteOptions {
  /** The server's address, e.g. http://localhost:8080 (or a Weaviate Cloud cluster URL). */
  endpoint: string;
  /** Sent as a bearer token when set. */
  apiKey?: string;
}

/** The class that holds a namespace: Weaviate class names start with a capital letter and hold [A-Za-z0-9_]. */
export function weaviateClass(namespace: string): string {
  const clean = namespace.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z]/.test(clean) ? clean[0].toUpperCase() + clean.slice(1) : `L${clean}`;
}

interface Found {
  text?: string;
  doc_id?: string;
  metadata?: string;
  lectern_id?: string;
  _additional?: { id?: string; distance?: number; vector?: number[] };
}

interface GraphQlAnswer<T> {
  data?: T;
  errors?: { message: string }[];
}

const PROPERTIES = [
  { name: "text", dataType: ["text"] },
  { name: "doc_id", dataType: ["text"], tokenization: "field", indexSearchable: false },
  { name: "metadata", dataType: ["text"], indexSearchable: false, indexFilterable: false },
  { name: "lectern_id", dataType: ["text"], tokenization: "field", indexSearchable: false },
];

export function openWeaviateStore(options: WeaviateOptions): VectorStore {
  const api = new RemoteApi(
    "Weaviate",
    options.endpoint,
    options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    options,
  );
  const known = new Set<string>();

  async function exists(name: string): Promise<boolean> {
    if (known.has(name)) return true;
    const answer = await api.call("GET", `/v1/schema/${name}`, undefined, [404]);
    if (answer.status === 404) return false;
    known.add(name);
    return true;
  }

  async function ensure(name: string): Promise<void> {
    if (await exists(name)) return;
    const made = await api.call<{ error?: { message: string }[] }>("POST", "/v1/schema", {
      class: name,
      description: "Chunks of documents embedded by Lectern.",
      vectorizer: "none",
      vectorIndexConfig: { distance: "cosine" },
      properties: PROPERTIES,
    }, [422]);
    if (made.status === 422 && !/already exists/i.test(made.body?.error?.[0]?.message ?? "")) {
      throw api.failure(422, made.body?.error?.[0]?.message ?? "the class was refused");
    }
    known.add(name);
  }

  async function graphql<T>(query: string): Promise<GraphQlAnswer<T>> {
    return (await api.call<GraphQlAnswer<T>>("POST", "/v1/graphql", { query })).body ?? {};
  }

  /** GraphQL answers 200 with errors; a class removed behind Lectern's back is one of them. */
  function checked<T>(name: string, answer: GraphQlAnswer<T>): T | null {
    const message = answer.errors?.[0]?.message;
    if (!message) return answer.data ?? null;
    if (/Cannot query field/.test(message)) {
      known.delete(name);
      return null;
    }
    throw new ProviderError(`Weaviate at ${api.endpoint} refused the query: ${sentence(message)}`);
  }

  return {
    async upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return;
      const name = weaviateClass(namespace);
      await ensure(name);
      for (const batch of batches(records, BATCH)) {
        const answer = await api.call<{ result?: { errors?: { error?: { message: string }[] } } }[]>(
          "POST",
          "/v1/batch/objects",
          {
            objects: batch.map((entry) => ({
              class: name,
              id: uuidOf(entry.id),
              vector: entry.vector,
              properties: {
                text: entry.text,
                doc_id: entry.docId,
                metadata: JSON.stringify(entry.metadata),
                lectern_id: entry.id,
              },
            })),
          },
        );
        const failed = (answer.body ?? []).find((object) => object.result?.errors?.error?.length);
        if (failed) {
          const message = failed.result!.errors!.error![0].message;
          if (/class.*not.*(found|present)|could not find class/i.test(message)) known.delete(name);
          throw new ProviderError(`Weaviate at ${api.endpoint} did not store a chunk: ${sentence(message)}`);
        }
      }
    },

    async search(namespace: string, vector: number[], search: SearchOptions): Promise<VectorHit[]> {
      const name = weaviateClass(namespace);
      if (!(await exists(name))) return [];
      const hybrid = search.text?.trim();
      const argument = hybrid
        ? `hybrid: {query: ${JSON.stringify(hybrid)}, vector: ${
          JSON.stringify(vector)
        }, alpha: ${HYBRID_ALPHA}}`
        : `nearVector: {vector: ${JSON.stringify(vector)}}`;
      const additional = hybrid ? "id vector" : "id distance";
      const data = checked(
        name,
        await graphql<{ Get?: Record<string, Found[]> }>(
          `{ Get { ${name}(${argument}, limit: ${
            Math.max(1, Math.floor(search.topK))
          }) { text doc_id metadata lectern_id _additional { ${additional} } } } }`,
        ),
      );
      const hits = (data?.Get?.[name] ?? []).map((found) => ({
        id: found.lectern_id ?? found._additional?.id ?? "",
        docId: String(found.doc_id ?? ""),
        text: found.text ?? "",
        metadata: parseMetadata(found.metadata),
        score: hybrid
          ? cosineSimilarity(vector, found._additional?.vector ?? [])
          : similarityOf(Number(found._additional?.distance ?? Infinity)),
      }));
      return hits;
    },

    async count(namespace: string) {
      const name = weaviateClass(namespace);
      if (!(await exists(name))) return 0;
      const data = checked(
        name,
        await graphql<{ Aggregate?: Record<string, { meta?: { count?: number } }[]> }>(
          `{ Aggregate { ${name} { meta { count } } } }`,
        ),
      );
      return Number(data?.Aggregate?.[name]?.[0]?.meta?.count ?? 0);
    },

    async deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return;
      const name = weaviateClass(namespace);
      if (!(await exists(name))) return;
      const equal = (docId: string) => ({ path: ["doc_id"], operator: "Equal", valueText: docId });
      const where = docIds.length === 1 ? equal(docIds[0]) : { operator: "Or", operands: docIds.map(equal) };
      // One request deletes at most the server's QUERY_MAXIMUM_RESULTS objects: repeat while it deletes a full load.
      for (;;) {
        const answer = await api.call<
          { results?: { matches?: number; limit?: number; successful?: number } }
        >(
          "DELETE",
          "/v1/batch/objects",
          { match: { class: name, where }, output: "minimal" },
          [404],
        );
        if (answer.status === 404) {
          known.delete(name);
          return;
        }
        const results = answer.body?.results ?? {};
        if (!results.limit || (results.matches ?? 0) < results.limit || !results.successful) return;
      }
    },

    async dropNamespaces(prefix: string) {
      const start = prefix ? weaviateClass(prefix) : "";
      const answer = await api.call<{ classes?: { class: string }[] }>("GET", "/v1/schema");
      for (const { class: name } of answer.body?.classes ?? []) {
        if (!name.startsWith(start)) continue;
        known.delete(name);
        await api.call("DELETE", `/v1/schema/${name}`, undefined, [404]);
      }
    },

    close() {
      known.clear();
      return Promise.resolve();
    },
  };
}
