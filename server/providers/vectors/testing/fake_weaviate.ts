// A Weaviate fake: the REST schema and batch calls and the two GraphQL queries weaviate.ts sends (Get with
// nearVector or hybrid, Aggregate meta count), with Weaviate's bearer-key check and error shapes. Its hybrid
// ranking is a stand-in for Weaviate's (cosine and word overlap, half each), enough to show words count.
import { cosine, type FakeServer, json, serveFake } from "./fake_server.ts";

interface WeaviateObject {
  id: string;
  vector: number[];
  properties: Record<string, string>;
}

interface WeaviateClass {
  config: Record<string, unknown>;
  objects: Map<string, WeaviateObject>;
}

export interface FakeWeaviate extends FakeServer {
  classes: Map<string, WeaviateClass>;
}

interface Where {
  path?: string[];
  operator: string;
  valueText?: string;
  operands?: Where[];
}

function matches(object: WeaviateObject, where: Where): boolean {
  if (where.operator === "Or") return (where.operands ?? []).some((operand) => matches(object, operand));
  if (where.operator === "Equal") return object.properties[where.path![0]] === where.valueText;
  throw new Error(`The fake has no operator ${where.operator}.`);
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

export function startFakeWeaviate(options: { apiKey?: string; deleteLimit?: number } = {}): FakeWeaviate {
  const classes = new Map<string, WeaviateClass>();
  const deleteLimit = options.deleteLimit ?? 10_000;

  function graphql(query: string): unknown {
    const aggregate = query.match(/^\{ Aggregate \{ (\w+) \{ meta \{ count \} \} \} \}$/);
    const get = query.match(
      /^\{ Get \{ (\w+)\((nearVector|hybrid): \{(.*)\}, limit: (\d+)\) \{ ([\w ]+) _additional \{ ([\w ]+) \} \} \} \}$/s,
    );
    const name = aggregate?.[1] ?? get?.[1];
    const found = name ? classes.get(name) : undefined;
    if (!found) {
      return { errors: [{ message: `Cannot query field "${name}" on type "GetObjectsObj".` }] };
    }
    if (aggregate) return { data: { Aggregate: { [name!]: [{ meta: { count: found.objects.size } }] } } };
    const [, , kind, argument, limit, fields, additional] = get!;
    const vector = JSON.parse(argument.match(/vector: (\[[^\]]*\])/)![1]) as number[];
    const text = kind === "hybrid"
      ? JSON.parse(argument.match(/query: ("(?:[^"\\]|\\.)*")/)![1]) as string
      : "";
    const terms = new Set(words(text));
    const ranked = [...found.objects.values()].map((object) => {
      const similarity = cosine(vector, object.vector);
      const own = words(object.properties.text ?? "");
      const overlap = own.length && terms.size
        ? own.filter((word) => terms.has(word)).length / own.length
        : 0;
      return {
        object,
        similarity,
        rank: kind === "hybrid" ? 0.5 * (1 + similarity) / 2 + 0.5 * overlap : similarity,
      };
    }).sort((a, b) => b.rank - a.rank).slice(0, Number(limit));
    return {
      data: {
        Get: {
          [name!]: ranked.map(({ object, similarity }) => ({
            ...Object.fromEntries(
              fields.split(" ").map((field) => [field, object.properties[field] ?? null]),
            ),
            _additional: Object.fromEntries(
              additional.split(" ").map((field) => [
                field,
                field === "id" ? object.id : field === "distance" ? 1 - similarity : object.vector,
              ]),
            ),
          })),
        },
      },
    };
  }

  const server = serveFake((request, url, body) => {
    if (options.apiKey && request.headers.get("authorization") !== `Bearer ${options.apiKey}`) {
      return json({ code: 401, message: "unauthorized: invalid api key: key not found" }, 401);
    }
    const input = (body ?? {}) as Record<string, unknown>;
    const route = `${request.method} ${url.pathname}`;
    if (route === "POST /v1/graphql") return json(graphql(String(input.query)));
    if (route === "GET /v1/schema") {
      return json({ classes: [...classes].map(([name, entry]) => ({ class: name, ...entry.config })) });
    }
    if (route === "POST /v1/schema") {
      const name = String(input.class);
      if (!/^[A-Z][_0-9A-Za-z]*$/.test(name)) {
        return json({ error: [{ message: `"${name}" is not a valid class name` }] }, 422);
      }
      if (classes.has(name)) {
        return json({ error: [{ message: `class name "${name}" already exists` }] }, 422);
      }
      if (input.vectorizer !== "none") {
        return json({ error: [{ message: "the fake needs vectorizer none" }] }, 422);
      }
      classes.set(name, { config: input, objects: new Map() });
      return json(input);
    }
    const schema = url.pathname.match(/^\/v1\/schema\/(\w+)$/);
    if (schema) {
      const found = classes.get(schema[1]);
      if (request.method === "DELETE") {
        classes.delete(schema[1]);
        return new Response(null, { status: 200 });
      }
      return found ? json({ class: schema[1], ...found.config }) : new Response(null, { status: 404 });
    }
    if (route === "POST /v1/batch/objects") {
      return json((input.objects as (WeaviateObject & { class: string })[]).map((object) => {
        const found = classes.get(object.class);
        if (!found) {
          return {
            ...object,
            result: { errors: { error: [{ message: `class ${object.class} not found in schema` }] } },
          };
        }
        found.objects.set(object.id, object);
        return { ...object, result: {} };
      }));
    }
    if (route === "DELETE /v1/batch/objects") {
      const match = input.match as { class: string; where: Where };
      const found = classes.get(match.class);
      if (!found) return json({ error: [{ message: `class ${match.class} not found` }] }, 422);
      const hits = [...found.objects.values()].filter((object) => matches(object, match.where)).slice(
        0,
        deleteLimit,
      );
      for (const object of hits) found.objects.delete(object.id);
      return json({
        match,
        output: "minimal",
        results: { matches: hits.length, limit: deleteLimit, successful: hits.length, failed: 0 },
      });
    }
    return json({ error: [{ message: `no route ${route}` }] }, 404);
  });
  return { ...server, classes };
}
