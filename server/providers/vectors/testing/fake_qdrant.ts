// A Qdrant REST API fake (the calls of qdrant.ts, answered as Qdrant 1.x answers them): collections with a size
// and Cosine distance, points with payloads, search, exact count, delete by filter, the api-key header.
import { cosine, type FakeServer, json, serveFake } from "./fake_server.ts";

interface Point {
  id: string;
  vector: number[];
  payload: Record<string, unknown>;
}

interface Collection {
  size: number;
  points: Map<string, Point>;
  indexes: string[];
}

export interface FakeQdrant extends FakeServer {
  collections: Map<string, Collection>;
}

const ok = (result: unknown) => json({ result, status: "ok", time: 0.001 });
const fail = (status: number, error: string) => json({ status: { error }, time: 0 }, status);

function matches(
  point: Point,
  filter: { must?: { key: string; match: { any?: unknown[]; value?: unknown } }[] },
) {
  return (filter.must ?? []).every((condition) => {
    const value = point.payload[condition.key];
    if (condition.match.any) return condition.match.any.includes(value);
    return value === condition.match.value;
  });
}

export function startFakeQdrant(options: { apiKey?: string } = {}): FakeQdrant {
  const collections = new Map<string, Collection>();
  const server = serveFake((request, url, body) => {
    if (options.apiKey && request.headers.get("api-key") !== options.apiKey) {
      return new Response("Invalid api-key", { status: 401 });
    }
    const input = (body ?? {}) as Record<string, unknown>;
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== "collections") return fail(404, "Not found");
    if (parts.length === 1 && request.method === "GET") {
      return ok({ collections: [...collections.keys()].map((name) => ({ name })) });
    }
    const name = parts[1];
    const collection = collections.get(name);
    if (parts.length === 2 && request.method === "PUT") {
      if (collection) return fail(409, `Wrong input: Collection \`${name}\` already exists!`);
      const vectors = input.vectors as { size: number; distance: string };
      if (vectors?.distance !== "Cosine" || !(vectors.size > 0)) return fail(400, "Wrong input: vectors.");
      collections.set(name, { size: vectors.size, points: new Map(), indexes: [] });
      return ok(true);
    }
    if (!collection) return fail(404, `Not found: Collection \`${name}\` doesn't exist!`);
    const route = `${request.method} ${parts.slice(2).join("/")}`;
    switch (route) {
      case "GET ":
        return ok({ status: "green", points_count: collection.points.size, config: {} });
      case "DELETE ":
        collections.delete(name);
        return ok(true);
      case "PUT index":
        collection.indexes.push(String(input.field_name));
        return ok({ operation_id: 1, status: "completed" });
      case "PUT points": {
        for (const point of input.points as Point[]) {
          if (point.vector.length !== collection.size) {
            return fail(
              400,
              `Wrong input: Vector dimension error: expected dim: ${collection.size}, got ${point.vector.length}`,
            );
          }
          collection.points.set(String(point.id), point);
        }
        return ok({ operation_id: 2, status: "completed" });
      }
      case "POST points/search": {
        const vector = input.vector as number[];
        const hits = [...collection.points.values()]
          .map((point) => ({
            id: point.id,
            version: 1,
            score: cosine(vector, point.vector),
            payload: point.payload,
          }))
          .sort((a, b) => b.score - a.score)
          .slice(0, Number(input.limit ?? 10));
        return ok(hits);
      }
      case "POST points/count":
        return ok({ count: collection.points.size });
      case "POST points/delete": {
        for (const [id, point] of collection.points) {
          if (matches(point, input.filter as never)) collection.points.delete(id);
        }
        return ok({ operation_id: 3, status: "completed" });
      }
    }
    return fail(404, `Not found: ${route}`);
  });
  return { ...server, collections };
}
