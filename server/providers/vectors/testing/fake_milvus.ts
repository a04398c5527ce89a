// A Milvus RESTful API v2 fake (also Zilliz Cloud's): collections with a schema, upsert, search in COSINE space,
// count(*) query, delete by a `doc_id in [...]` filter, list and drop; HTTP 200 with a non-zero code on failure
// and Milvus's codes for a missing collection and a refused token.
import { cosine, type FakeServer, json, serveFake } from "./fake_server.ts";

interface Collection {
  dimension: number;
  schema: Record<string, unknown>;
  rows: Map<string, Record<string, unknown>>;
}

export interface FakeMilvus extends FakeServer {
  collections: Map<string, Collection>;
}

const ok = (data: unknown = {}) => json({ code: 0, data });
const fail = (code: number, message: string) => json({ code, message });

export function startFakeMilvus(options: { token?: string } = {}): FakeMilvus {
  const collections = new Map<string, Collection>();
  const server = serveFake((request, url, body) => {
    if (options.token && request.headers.get("authorization") !== `Bearer ${options.token}`) {
      return fail(1800, "user hasn't authenticated");
    }
    if (request.method !== "POST" || !url.pathname.startsWith("/v2/vectordb/")) {
      return json({ code: 404, message: "404 page not found" }, 404);
    }
    const input = (body ?? {}) as Record<string, unknown>;
    const name = String(input.collectionName ?? "");
    const found = collections.get(name);
    const missing = () =>
      fail(100, `can't find collection[database=default][collection=${name}]: collection not found`);
    switch (url.pathname.slice("/v2/vectordb/".length)) {
      case "collections/has":
        return ok({ has: found !== undefined });
      case "collections/list":
        return ok([...collections.keys()]);
      case "collections/drop":
        collections.delete(name);
        return ok();
      case "collections/create": {
        const schema = input.schema as {
          fields: { fieldName: string; elementTypeParams?: { dim?: number } }[];
        };
        const vector = schema.fields.find((field) => field.fieldName === "vector");
        const index = (input.indexParams as { metricType: string }[] | undefined)?.[0];
        if (!vector?.elementTypeParams?.dim || index?.metricType !== "COSINE") {
          return fail(1100, "invalid parameter: the fake wants a vector field and a COSINE index");
        }
        if (found) return fail(65535, `collection ${name} already exists`);
        collections.set(name, { dimension: vector.elementTypeParams.dim, schema: input, rows: new Map() });
        return ok();
      }
      case "entities/upsert": {
        if (!found) return missing();
        const rows = input.data as Record<string, unknown>[];
        for (const row of rows) {
          if ((row.vector as number[]).length !== found.dimension) {
            return fail(
              1100,
              `the dim (${
                (row.vector as number[]).length
              }) of field data(vector) is not equal to schema dim (${found.dimension})`,
            );
          }
          found.rows.set(String(row.id), row);
        }
        return ok({ upsertCount: rows.length });
      }
      case "entities/search": {
        if (!found) return missing();
        const [vector] = input.data as number[][];
        const fields = input.outputFields as string[];
        return ok(
          [...found.rows.values()]
            .map((row) => ({
              id: row.id,
              distance: cosine(vector, row.vector as number[]),
              ...Object.fromEntries(fields.map((field) => [field, row[field]])),
            }))
            .sort((a, b) => b.distance - a.distance)
            .slice(0, Number(input.limit)),
        );
      }
      case "entities/query":
        if (!found) return missing();
        if ((input.outputFields as string[])[0] !== "count(*)") return fail(1100, "the fake only counts");
        return ok([{ "count(*)": found.rows.size }]);
      case "entities/delete": {
        if (!found) return missing();
        const filter = String(input.filter).match(/^doc_id in (\[.*\])$/);
        if (!filter) return fail(1100, `cannot parse expression: ${input.filter}`);
        const wanted = JSON.parse(filter[1]) as string[];
        for (const [id, row] of found.rows) if (wanted.includes(String(row.doc_id))) found.rows.delete(id);
        return ok({});
      }
    }
    return json({ code: 404, message: "404 page not found" }, 404);
  });
  return { ...server, collections };
}
