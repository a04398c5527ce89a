// A Pinecone fake: the control plane's describe-index and the data plane's upsert, query, describe_index_stats,
// list (serverless only, paginated) and delete (by ids, by metadata filter on pod-based indexes only, deleteAll),
// with Pinecone's Api-Key header and error bodies. One loopback server plays both planes; the index's host is it.
import { cosine, type FakeServer, json, serveFake } from "./fake_server.ts";

interface Vector {
  id: string;
  values: number[];
  metadata: Record<string, unknown>;
}

export interface FakePinecone extends FakeServer {
  namespaces: Map<string, Map<string, Vector>>;
}

export interface FakePineconeOptions {
  apiKey: string;
  index: string;
  dimension?: number;
  metric?: string;
  ready?: boolean;
  podBased?: boolean;
  /** A port to listen on (a free one unless given). */
  port?: number;
}

const error = (status: number, code: string, message: string) =>
  json({ error: { code, message }, status }, status);

export function startFakePinecone(options: FakePineconeOptions): FakePinecone {
  const namespaces = new Map<string, Map<string, Vector>>();
  const dimension = options.dimension ?? 8;
  const space = (name: string) => {
    if (!namespaces.has(name)) namespaces.set(name, new Map());
    return namespaces.get(name)!;
  };
  const server = serveFake((request, url, body) => {
    if (request.headers.get("api-key") !== options.apiKey) {
      return error(401, "UNAUTHENTICATED", "Invalid API Key");
    }
    const input = (body ?? {}) as Record<string, unknown>;
    const route = `${request.method} ${url.pathname}`;
    if (request.method === "GET" && url.pathname.startsWith("/indexes/")) {
      const name = decodeURIComponent(url.pathname.slice("/indexes/".length));
      if (name !== options.index) return error(404, "NOT_FOUND", `Resource ${name} not found`);
      return json({
        name,
        dimension,
        metric: options.metric ?? "cosine",
        host: server.url,
        spec: options.podBased ? { pod: {} } : { serverless: { cloud: "aws", region: "us-east-1" } },
        status: { ready: options.ready ?? true, state: options.ready === false ? "Initializing" : "Ready" },
      });
    }
    const namespace = String(input.namespace ?? url.searchParams.get("namespace") ?? "");
    switch (route) {
      case "POST /vectors/upsert": {
        const vectors = input.vectors as Vector[];
        if (vectors.length > 1000) return error(400, "INVALID_ARGUMENT", "Too many vectors.");
        for (const vector of vectors) {
          if (vector.values.length !== dimension) {
            return error(
              400,
              "INVALID_ARGUMENT",
              `Vector dimension ${vector.values.length} does not match the dimension of the index ${dimension}`,
            );
          }
          space(namespace).set(vector.id, vector);
        }
        return json({ upsertedCount: vectors.length });
      }
      case "POST /query": {
        const vector = input.vector as number[];
        const matches = [...(namespaces.get(namespace)?.values() ?? [])]
          .map((entry) => ({
            id: entry.id,
            score: cosine(vector, entry.values),
            ...(input.includeMetadata ? { metadata: entry.metadata } : {}),
          }))
          .sort((a, b) => b.score - a.score)
          .slice(0, Number(input.topK));
        return json({ matches, namespace, usage: { readUnits: 1 } });
      }
      case "POST /describe_index_stats": {
        const counts = Object.fromEntries(
          [...namespaces].filter(([, vectors]) => vectors.size > 0).map((
            [name, vectors],
          ) => [name, { vectorCount: vectors.size }]),
        );
        const total = Object.values(counts).reduce((sum, entry) => sum + entry.vectorCount, 0);
        return json({ namespaces: counts, dimension, indexFullness: 0, totalVectorCount: total });
      }
      case "GET /vectors/list": {
        if (options.podBased) {
          return error(400, "INVALID_ARGUMENT", "List is not supported for pod-based indexes.");
        }
        const stored = namespaces.get(namespace);
        if (!stored) return json({ code: 5, message: "Namespace not found", details: [] }, 404);
        const prefix = url.searchParams.get("prefix") ?? "";
        const limit = Number(url.searchParams.get("limit") ?? 100);
        const offset = Number(url.searchParams.get("paginationToken") ?? 0);
        const ids = [...stored.keys()].filter((id) => id.startsWith(prefix)).sort();
        const page = ids.slice(offset, offset + limit);
        return json({
          vectors: page.map((id) => ({ id })),
          ...(offset + limit < ids.length ? { pagination: { next: String(offset + limit) } } : {}),
          namespace,
        });
      }
      case "POST /vectors/delete": {
        const stored = namespaces.get(namespace);
        if (!stored) return json({ code: 5, message: "Namespace not found", details: [] }, 404);
        if (input.deleteAll) namespaces.delete(namespace);
        else if (input.filter) {
          if (!options.podBased) {
            return error(
              400,
              "INVALID_ARGUMENT",
              "Serverless and Starter indexes do not support deleting with metadata filtering.",
            );
          }
          const wanted = (input.filter as { doc_id: { $in: string[] } }).doc_id.$in;
          for (const [id, vector] of stored) {
            if (wanted.includes(String(vector.metadata.doc_id))) stored.delete(id);
          }
        } else {
          const ids = input.ids as string[];
          if (ids.length > 1000) return error(400, "INVALID_ARGUMENT", "Too many ids.");
          for (const id of ids) stored.delete(id);
        }
        return json({});
      }
    }
    return error(404, "NOT_FOUND", `No route ${route}`);
  }, options.port);
  return { ...server, namespaces };
}
