// An Astra DB Data API fake: the keyspace commands (createCollection, findCollections, deleteCollection) and the
// collection commands astra.ts sends (insertMany, deleteMany with moreData, find sorted by $vector with
// includeSimilarity, countDocuments capped at 1,000, estimatedDocumentCount), with the Token header and Astra's
// error shapes. Astra's cosine similarity is (1 + cos) / 2, and so is the fake's.
import { cosine, type FakeServer, json, serveFake } from "./fake_server.ts";

type Document = Record<string, unknown> & { _id: string };

interface Collection {
  options: { vector?: { dimension: number; metric: string } };
  documents: Map<string, Document>;
}

export interface FakeAstra extends FakeServer {
  collections: Map<string, Collection>;
}

const error = (errorCode: string, message: string, status = 200) =>
  json({ errors: [{ message, errorCode }] }, status);

function matches(document: Document, filter: Record<string, { $in: unknown[] }>): boolean {
  return Object.entries(filter).every(([key, condition]) => condition.$in.includes(document[key]));
}

export function startFakeAstra(
  options: { token: string; countLimit?: number; deleteLimit?: number },
): FakeAstra {
  const collections = new Map<string, Collection>();
  const countLimit = options.countLimit ?? 1000;
  const deleteLimit = options.deleteLimit ?? 20;
  const server = serveFake((request, url, body) => {
    if (request.headers.get("token") !== options.token) {
      return error("UNAUTHENTICATED_REQUEST", "Role unauthorized for operation: Invalid token.", 401);
    }
    const parts = url.pathname.split("/").filter(Boolean);
    if (
      request.method !== "POST" || parts.slice(0, 3).join("/") !== "api/json/v1" ||
      parts[3] !== "default_keyspace"
    ) {
      return error("KEYSPACE_DOES_NOT_EXIST", `Unknown keyspace or path ${url.pathname}.`, 404);
    }
    const [name, argument] = Object.entries(body as Record<string, Record<string, unknown>>)[0];
    if (parts.length === 4) {
      switch (name) {
        case "findCollections":
          return json({ status: { collections: [...collections.keys()] } });
        case "createCollection": {
          const created = String(argument.name);
          if (!collections.has(created)) {
            collections.set(created, {
              options: argument.options as Collection["options"],
              documents: new Map(),
            });
          }
          return json({ status: { ok: 1 } });
        }
        case "deleteCollection":
          collections.delete(String(argument.name));
          return json({ status: { ok: 1 } });
      }
      return error("UNKNOWN_KEYSPACE_COMMAND", `No keyspace command ${name}.`);
    }
    const collection = collections.get(parts[4]);
    if (!collection) {
      return error("COLLECTION_NOT_EXIST", `Collection does not exist, collection name: ${parts[4]}`);
    }
    const documents = collection.documents;
    switch (name) {
      case "insertMany": {
        const given = argument.documents as Document[];
        if (given.length > 100) return error("COMMAND_FIELD_INVALID", "Too many documents.");
        for (const document of given) {
          if (documents.has(document._id)) {
            return error(
              "DOCUMENT_ALREADY_EXISTS",
              `Document already exists with the given _id ${document._id}`,
            );
          }
          const vector = document.$vector as number[];
          if (vector.length !== collection.options.vector?.dimension) {
            return error(
              "VECTOR_SIZE_MISMATCH",
              `Length of vector parameter different from declared '$vector' dimension: root cause = (InvalidQueryException) Not enough bytes to read a vector<float, ${collection.options.vector?.dimension}>`,
            );
          }
          documents.set(document._id, document);
        }
        return json({ status: { insertedIds: given.map((document) => document._id) } });
      }
      case "deleteMany": {
        const filter = argument.filter as Record<string, { $in: unknown[] }>;
        const hits = [...documents.values()].filter((document) => matches(document, filter));
        for (const document of hits.slice(0, deleteLimit)) documents.delete(document._id);
        return json({
          status: {
            deletedCount: Math.min(hits.length, deleteLimit),
            ...(hits.length > deleteLimit ? { moreData: true } : {}),
          },
        });
      }
      case "find": {
        const vector = (argument.sort as { $vector: number[] }).$vector;
        const limit = (argument.options as { limit: number }).limit;
        const found = [...documents.values()]
          .map((document) => {
            const { $vector, ...rest } = document;
            return { ...rest, $similarity: (1 + cosine(vector, $vector as number[])) / 2 };
          })
          .sort((a, b) => b.$similarity - a.$similarity)
          .slice(0, limit);
        return json({ data: { documents: found, nextPageState: null } });
      }
      case "countDocuments":
        return json({
          status: documents.size > countLimit
            ? { count: countLimit, moreData: true }
            : { count: documents.size },
        });
      case "estimatedDocumentCount":
        return json({ status: { count: documents.size } });
    }
    return error("UNKNOWN_COLLECTION_COMMAND", `No collection command ${name}.`);
  });
  return { ...server, collections };
}
