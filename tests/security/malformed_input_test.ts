/**
 * Security suite, class malformed input: every route the app serves (the app's own route list, as
 * authorization_test.ts walks it, so a new route is swept without a line here) gets hostile shapes as an admin,
 * and every route of the developer API gets them with a full-access key: a body that is not JSON, JSON that is
 * not an object, objects whose every field has the wrong type, `__proto__`/`constructor` keys, odd path
 * parameters and query values of the wrong type. Each answer must be a refusal with a human sentence (a 4xx, or
 * the reference's 200 with `success: false`), or a 2xx where the route documents ignoring that input (listed
 * below with the reason); never a 5xx other than a route's documented 501/502, and no answer may carry a stack,
 * a file path or SQL. After the sweep the server still answers and the rows it held before are as they
 * were. All traffic stays on loopback: fetch is replaced by one that refuses (and records) any other address.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createApp } from "../../server/app.ts";
import { appRoutes } from "../../server/http/lazy_routes.ts";
import { developerApi } from "../../server/developer_api/routes.ts";
import type { V1Route } from "../../server/developer_api/router.ts";
import { makeApiKey } from "../../server/testing/api_keys.ts";
import { createTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { createLogger } from "../../server/log.ts";
import { type Call, MIDDLEWARE, ROUTES } from "./authorization_routes.ts";
import { buildWorld, type World } from "./authorization_world.ts";

/** One hostile request: what it is, and the statuses that are fine for it besides a 4xx. */
interface Probe {
  route: string;
  shape: string;
  method: string;
  path: string;
  body?: BodyInit;
  contentType?: string;
  token: string;
  /** 2xx/3xx is acceptable: the route documents ignoring this input. */
  ignorable: boolean;
  /** A 5xx the route answers by design (501: a feature not built; 502: the loopback provider is down). */
  documented?: number;
}

/**
 * Routes left out of the sweep, each with the reason. Anything the app serves and is neither swept nor here
 * fails the first step.
 */
const SKIPPED: Record<string, string> = {
  "GET /*": "the pages' catch-all: any path is a page of the single-page app (200 with its HTML, by design)",
  "GET /static/assets/*": "static files: an unknown name is a 404 from the file server; no input is read",
};

/**
 * The routes whose fields are all optional paging values: any JSON that is not an object reads as no fields
 * (shared/api/body.ts `jsonObject`, as the reference's handlers default them), so the first page answers.
 * Routes whose valid call sends `{}` read no field at all and are treated the same way without a line here.
 */
const IGNORES_BODY: Record<string, string> = {
  "POST /api/system/workspace-chats": "offset and limit are optional (the reference: {offset=0, limit=20})",
  "POST /api/system/event-logs": "offset and limit are optional (the reference: {offset=0, limit=10})",
  "POST /api/embed/chats": "offset is optional (the reference: {offset=0})",
  "POST /api/v1/admin/workspace-chats": "offset is optional (the reference: {offset=0})",
};

/** Routes that read no body and act on the object in their path: junk bodies would only repeat the action. */
const BODYLESS_ACTIONS: Record<string, string> = {
  "PUT /api/workspace/workspace-chats/:id": "hides the chat named in its path from history (reads no body)",
};

/**
 * Shapes that are valid calls of a route although they look hostile (the value means something there): not
 * sent, since they would act (a null default prompt is the reset to the built-in one).
 */
const VALID_SHAPES: Record<string, { shapes: string[]; why: string }> = {
  "POST /api/workspace/:slug/chat-feedback/:chatId": {
    shapes: ["every field null", "every field a negative number"],
    why: "the reference: feedback null clears it, -1 is a thumbs down (shared/api/chat_actions.ts)",
  },
  "POST /api/system/default-system-prompt": {
    shapes: ["every field null"],
    why: "null is the built-in prompt (the screen's reset)",
  },
  "POST /api/system/generate-api-key": { shapes: ["every field null"], why: "the key's name is optional" },
  "POST /api/admin/generate-api-key": { shapes: ["every field null"], why: "the key's name is optional" },
  "POST /api/v1/workspace/:slug/thread/new": {
    shapes: ["every field null"],
    why: "name, userId and slug are optional (the reference's defaults)",
  },
};

/** Odd path values a route gives a meaning on purpose: not sent there. */
const PARAM_MEANINGS: Record<string, { values: string[]; why: string }> = {
  "DELETE /api/system/workspace-chats/:id": {
    values: ["-1"],
    why: "the reference: id -1 deletes every chat of the instance (api-contract §5, Workspace Chats screen)",
  },
};

/**
 * Routes whose path parameter is free text or whose odd values have a documented 2xx: any value is a 2xx there.
 */
const FREE_TEXT_PARAMS: Record<string, string> = {
  "GET /api/embed/:embedId/:sessionId":
    "the widget's session id is any text the widget made up; an unknown one has an empty history",
  "DELETE /api/embed/:embedId/:sessionId":
    "the same session id: forgetting an unknown session is done already",
  "GET /api/system/pfp/:id": "the reference: anyone's picture but the caller's own is 204, no picture",
};
const V1_FREE_TEXT_PARAMS: Record<string, string> = {
  "GET /api/v1/workspace/:slug": 'the reference: an unknown slug answers 200 {"workspace": []}',
  "DELETE /api/v1/workspace/:slug/thread/:threadSlug":
    "the reference: deleting a thread the workspace does not have answers OK",
};

/** Path parameters no route should take for one of its objects. */
const ODD_PARAMS: Record<string, string> = {
  "an encoded ../ climb": "..%2F..%2F..%2Fetc%2Fpasswd",
  "a very long value": "x".repeat(3000),
  "unicode": encodeURIComponent("ünïcødé-🦜-東京"),
  "a NUL byte": "a%00b",
  "a negative number": "-1",
  "a huge number": "1e400",
  "a hex number": "0x1",
  "NaN": "NaN",
  "__proto__": "__proto__",
  "constructor": "constructor",
};

/** Query values of the wrong type, given to every query name a route may read. */
const ODD_QUERY_VALUES: Record<string, (name: string) => string> = {
  "a word where a number goes": (name) => `${name}=abc`,
  "a negative number": (name) => `${name}=-1`,
  "a huge number": (name) => `${name}=1e400`,
  "a NUL byte": (name) => `${name}=%00`,
  "__proto__": (name) => `${name}=__proto__&__proto__[${name}]=1`,
  "repeated, with a word first": (name) => `${name}=abc&${name}=1&${name}[]=2`,
  "a very long value": (name) => `${name}=${"9".repeat(2000)}`,
};
/**
 * Routes that read a query value of their own leniently, by design: any value answers 2xx. A value a route does
 * not read is ignored (2xx) everywhere; the values a route's own call sends must be refused unless listed here.
 */
const READS_QUERY_LENIENTLY: Record<string, string> = {
  "GET /api/auth/oidc/callback":
    "any code or state the provider refuses ends in the redirect to the sign-in page with the error (302)",
  "GET /api/admin/system-preferences-for":
    "the reference: labels it does not know are left out of the answer",
  "GET /api/system/local-files/search": "q is free text: any value is a search, most find nothing",
  "GET /api/v1/workspace/:slug/chats":
    'apiSessionId is free text; orderBy other than "desc" is "asc" (the reference); a limit under 1 reads as 1',
  "GET /api/v1/documents":
    "offset and limit apply only with folder (documented); the folder route checks them, and is probed too",
};

/** Query names read somewhere in the app, tried on every GET route besides the route's own. */
const QUERY_NAMES = [
  "offset",
  "limit",
  "page",
  "type",
  "folder",
  "q",
  "slug",
  "threadSlug",
  "labels",
  "orderBy",
  "apiSessionId",
  "chatType",
  "token",
];

/** Values of the wrong type for a field that holds `value`. */
function wrongFor(value: unknown): unknown {
  if (typeof value === "string") return { $ne: value, toString: "x" };
  if (typeof value === "number") return "12abc";
  if (typeof value === "boolean") return "yes";
  if (Array.isArray(value)) return "not a list";
  if (value === null) return [[]];
  return "not an object";
}

/** JSON bodies with every field given the same hostile value (what a field holds decides nothing). */
const EVERY_FIELD: Record<string, unknown> = {
  "an object": { nested: { deeper: [1, "two", null] } },
  "a huge number": 1e308,
  "a negative number": -1,
  "a NaN-ish string": "NaN",
  "an array": [{}, []],
  "a boolean": true,
  "null": null,
};

const json = (value: unknown) => JSON.stringify(value);

interface BodyShape {
  shape: string;
  body: string;
  type?: string;
  ignorable?: boolean;
}

const kind = (value: unknown) => value === null ? "null" : Array.isArray(value) ? "array" : typeof value;

/** The hostile bodies for a route whose valid body has these fields (values of their type, or null). */
function bodyShapes(fields: Record<string, unknown>): BodyShape[] {
  const keys = Object.keys(fields);
  const shapes: BodyShape[] = [
    { shape: "a body that is not JSON", body: '{"name": "unterminated', type: "application/json" },
    { shape: "plain text, not JSON", body: "hello there" },
    { shape: "JSON null", body: "null", type: "application/json" },
    { shape: "a JSON number", body: "42", type: "application/json" },
    { shape: "a JSON string", body: '"a string"', type: "application/json" },
    { shape: "a JSON array", body: json([fields]), type: "application/json" },
    {
      // Unknown keys are ignored (the reference's rule, api-contract §9): 2xx is fine, pollution is not.
      shape: "__proto__ and constructor keys",
      body:
        '{"__proto__": {"role": "admin", "polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
      type: "application/json",
      ignorable: true,
    },
  ];
  if (keys.length === 0) {
    shapes.push({
      shape: "unexpected fields of odd types",
      body: json({ name: { a: 1 }, id: "abc", slug: -1, userId: "NaN", message: 1e308 }),
      type: "application/json",
    });
    return shapes;
  }
  shapes.push({
    shape: "every field of a wrong type",
    body: json(Object.fromEntries(keys.map((key) => [key, wrongFor(fields[key])]))),
    type: "application/json",
  });
  for (const [what, value] of Object.entries(EVERY_FIELD)) {
    // Not hostile when it is what every field holds anyway ("NaN" is a fine name).
    if (keys.every((key) => kind(fields[key]) === kind(value))) continue;
    shapes.push({
      shape: `every field ${what}`,
      body: json(Object.fromEntries(keys.map((key) => [key, value]))),
      type: "application/json",
    });
  }
  return shapes;
}

/** A value of the type a zod schema takes (for the fields of a developer API body), or null when unclear. */
// deno-lint-ignore no-explicit-any
function sampleOf(schema: any, depth = 0): unknown {
  const def = schema?.def ?? schema?._def;
  if (!def || depth > 6) return null;
  switch (def.type) {
    case "string":
      return "text";
    case "number":
    case "int":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
    case "record":
      return {};
    case "enum":
      return Object.values(def.entries ?? {})[0] ?? null;
    case "literal":
      return def.values?.[0] ?? null;
    case "union":
      return sampleOf(def.options?.[0], depth + 1);
    case "optional":
    case "nullable":
    case "default":
    case "catch":
    case "readonly":
      return sampleOf(def.innerType, depth + 1);
    case "pipe":
      return sampleOf(def.in, depth + 1);
    default:
      return null;
  }
}

/** The fields of a developer API body schema (a zod object), each with a value of its type. */
function schemaFields(schema: unknown): Record<string, unknown> {
  // deno-lint-ignore no-explicit-any
  let current: any = schema;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current.shape && typeof current.shape === "object") {
      return Object.fromEntries(Object.entries(current.shape).map(([key, field]) => [key, sampleOf(field)]));
    }
    current = current.def?.in ?? current.def?.innerType ?? current.def?.schema ?? current._def?.schema;
  }
  return {};
}

/** `template`'s path with its parameter `index` (the n-th `:name` or `*` segment) replaced by `value`. */
function withParam(template: string, concrete: string, index: number, value: string): string | null {
  const [concretePath] = concrete.split("?");
  const want = template.split("/");
  const have = concretePath.split("/");
  if (want.length !== have.length) return null;
  let seen = -1;
  return want.map((segment, at) => {
    if (segment.startsWith(":") || segment === "*") {
      seen++;
      if (seen === index) return value;
    }
    return have[at];
  }).join("/");
}

const paramCount = (template: string) =>
  template.split("/").filter((segment) => segment.startsWith(":") || segment === "*").length;

function queryNames(path: string, extra: string[] = []): string[] {
  const query = path.split("?")[1] ?? "";
  const own = [...new URLSearchParams(query).keys()];
  return [...new Set([...own, ...extra, ...QUERY_NAMES])];
}

interface Answer {
  status: number;
  text: string;
  contentType: string;
}

/**
 * A refusal in the reference's shape: many of its calls answer 200 with `success: false` and the reason in
 * `error`, `message` or `reason` (api-contract §1, "Errors come in several shapes").
 */
function refusedInBody(answer: Answer): boolean {
  if (!answer.contentType.includes("json")) return false;
  try {
    const body = JSON.parse(answer.text);
    return body?.success === false || (typeof body?.error === "string" && body.error !== "");
  } catch {
    return false;
  }
}

/** A human sentence: words, a space, none of the shapes of an internal error. */
function sentenceProblem(message: unknown): string | null {
  if (typeof message !== "string") return `no message (${json(message)?.slice(0, 120)})`;
  if (message.length < 6 || !/\s/.test(message.trim()) || !/[A-Za-z]{3}/.test(message)) {
    return `not a sentence: ${json(message)}`;
  }
  const bad = [
    /\[object Object\]/,
    /invalid_type|"code":|ZodError|"path":\s*\[/,
    /^\s*(\{\s*"|\[\s*[{"])/,
    /Cannot read propert|is not a function|is not defined|is not iterable|undefined \(reading/,
    /^(Error|TypeError|RangeError|SyntaxError):/,
  ].find((pattern) => pattern.test(message));
  return bad ? `an internal error's shape (${bad}): ${json(message).slice(0, 200)}` : null;
}

/** The message of an error answer: `error`, `message` or a nested `error.message` (the OpenAI shape). */
function messageOf(answer: Answer): unknown {
  if (!answer.contentType.includes("json")) return answer.text;
  try {
    const body = JSON.parse(answer.text);
    if (typeof body?.error === "string" && body.error) return body.error;
    if (typeof body?.error?.message === "string") return body.error.message;
    if (typeof body?.message === "string" && body.message) return body.message;
    if (typeof body?.reason === "string" && body.reason) return body.reason;
    if (typeof body?.textResponse === "string" && body.textResponse) return body.textResponse;
    return undefined;
  } catch {
    return answer.text;
  }
}

function leakProblem(answer: Answer, app: TestApp): string | null {
  // Scripts and style sheets of the docs are files of a library, not answers.
  if (/javascript|css/.test(answer.contentType)) return null;
  const text = answer.text;
  const leaks: [string, RegExp | string][] = [
    ["a stack frame", /\n\s+at \S+|\bat (file|ext|node):|\.(ts|js):\d+:\d+/],
    ["a file URL", "file:///"],
    ["the storage folder", app.storageDir],
    ["the working directory", Deno.cwd()],
    ["a module folder", "node_modules"],
    [
      "SQL",
      /\b(SELECT \S+ FROM|INSERT INTO|DELETE FROM|UPDATE \S+ SET)\b|SQLITE_|no such (table|column)|constraint failed/i,
    ],
  ];
  for (const [what, pattern] of leaks) {
    if (typeof pattern === "string" ? text.includes(pattern) : pattern.test(text)) {
      return `leaks ${what}: ${text.slice(0, 300)}`;
    }
  }
  return null;
}

/** Only loopback: anything else is recorded and refused, so no probe can reach a provider or a website. */
function loopbackOnlyFetch(leaks: string[]): typeof fetch {
  const real = globalThis.fetch;
  return ((input: URL | RequestInfo, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (!/^127\./.test(host) && host !== "::1" && host !== "localhost") {
      leaks.push(url.href);
      return Promise.reject(new TypeError(`The malformed-input sweep refused a call to ${url.href}`));
    }
    return real(input, init);
  }) as typeof fetch;
}

/** The rows of the tables that hold what a user would lose, keyed by table and id. */
const KEPT_TABLES = [
  "users",
  "workspaces",
  "workspace_users",
  "workspace_threads",
  "workspace_chats",
  "workspace_documents",
  "documents",
  "system_settings",
  "system_prompt_variables",
  "slash_command_presets",
  "embed_configs",
  "api_keys",
  "invites",
  "workspace_suggested_messages",
];

async function keptRows(app: TestApp): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  for (const table of KEPT_TABLES) {
    const all = await app.deps.db.all<Record<string, unknown>>(
      sql.raw(`SELECT rowid AS _row, * FROM "${table}"`),
    );
    for (const row of all) {
      // Bookkeeping, not data: an update that changed nothing may still stamp the row, a key its last use.
      const { last_updated_at: _updated, last_used_at: _used, ...kept } = row;
      rows.set(`${table} #${row._row}`, json(kept));
    }
  }
  return rows;
}

async function documentFiles(app: TestApp, locations: string[]): Promise<string[]> {
  return await Promise.all(
    locations.map((location) => Deno.readTextFile(`${app.deps.paths.documents}/${location}`)),
  );
}

async function send(app: TestApp, probe: Probe): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${probe.token}` };
  if (probe.contentType) headers["Content-Type"] = probe.contentType;
  const response = await app.request(probe.path, { method: probe.method, headers, body: probe.body });
  return {
    status: response.status,
    text: await response.text(),
    contentType: response.headers.get("content-type") ?? "",
  };
}

/** The probes of one route of the app, built from its valid call in the authorization table. */
function appProbes(key: string, w: World, token: string): Probe[] {
  const rule = ROUTES[key];
  const [method, template] = [key.slice(0, key.indexOf(" ")), key.slice(key.indexOf(" ") + 1)];
  const call: Call = (rule.pass ?? rule.call)(w, "admin");
  const probes: Probe[] = [];
  const documented = typeof rule.status === "number" && rule.status >= 500 ? rule.status : undefined;
  // The call's own method: a stream is probed with HEAD (it would not end otherwise), as the table does.
  const base = { route: key, method: call.method, token, ignorable: false, documented };
  const takesBody = !(key in BODYLESS_ACTIONS) &&
    (call.form !== undefined || (call.json !== undefined && method !== "GET"));
  if (takesBody) {
    const fields = call.json && typeof call.json === "object" && !Array.isArray(call.json)
      ? call.json as Record<string, unknown>
      : {};
    for (const shape of bodyShapes(fields)) {
      if (VALID_SHAPES[key]?.shapes.includes(shape.shape)) continue;
      probes.push({
        ...base,
        shape: shape.shape,
        path: call.path,
        body: shape.body,
        contentType: shape.type,
        ignorable: shape.ignorable === true || Object.keys(fields).length === 0 || key in IGNORES_BODY,
      });
    }
    if (call.form) {
      const noFile = new FormData();
      noFile.append("name", "no file here");
      probes.push({ ...base, shape: "a form without its file", path: call.path, body: noFile });
      const textFile = new FormData();
      textFile.append("file", "a string where a file goes");
      probes.push({ ...base, shape: "a string where the file goes", path: call.path, body: textFile });
    }
  }
  const validBody = () =>
    call.form ? call.form() : call.json !== undefined && method !== "GET" ? json(call.json) : undefined;
  for (let index = 0; index < paramCount(template); index++) {
    for (const [shape, value] of Object.entries(ODD_PARAMS)) {
      if (PARAM_MEANINGS[key]?.values.includes(value)) continue;
      const path = withParam(template, call.path, index, value);
      if (path === null) continue;
      probes.push({
        ...base,
        ignorable: key in FREE_TEXT_PARAMS,
        shape: `path parameter ${index + 1}: ${shape}`,
        path,
        body: validBody(),
        contentType: call.json !== undefined && method !== "GET" ? "application/json" : undefined,
      });
    }
  }
  if (method === "GET") {
    const [path, own] = call.path.split("?");
    const kept = new URLSearchParams(own ?? "");
    for (const [shape, value] of Object.entries(ODD_QUERY_VALUES)) {
      for (const name of queryNames(call.path)) {
        const others = new URLSearchParams(kept);
        others.delete(name);
        const rest = others.toString();
        probes.push({
          ...base,
          shape: `query ${name}: ${shape}`,
          path: `${path}?${value(name)}${rest ? `&${rest}` : ""}`,
          // A value a route does not read is ignored; a value it reads must be refused or defaulted.
          ignorable: !kept.has(name) || key in READS_QUERY_LENIENTLY,
        });
      }
    }
  }
  return probes;
}

/** The probes of one developer API route: a full-access key, the world's objects in its path. */
function v1Probes(route: V1Route, w: World, key: string): Probe[] {
  const method = route.method.toUpperCase();
  const name = `${method} /api/v1${route.path}`;
  const destructive = method === "DELETE";
  const filled = route.path
    .replace(":slug", w.team.slug)
    .replace(":workspaceSlug", w.team.slug)
    .replace(":threadSlug", w.threads.admin)
    .replace(":folderName", "archive")
    .replace(":docName", w.archiveDoc.split("/")[1])
    // A user or invite to change is a real one (a refused change must leave it); one to delete is unknown.
    .replace(
      /:id/,
      String(destructive ? 987_654 : route.path.includes("workspaces/") ? w.team.id : w.ids.manager),
    );
  const concrete = `/api/v1${filled}`;
  const template = `/api/v1${route.path}`;
  const base = { route: name, method, token: key, ignorable: false };
  const probes: Probe[] = [];
  if (route.doc.body) {
    for (const shape of bodyShapes(schemaFields(route.doc.body))) {
      if (VALID_SHAPES[name]?.shapes.includes(shape.shape)) continue;
      probes.push({
        ...base,
        shape: shape.shape,
        path: concrete,
        body: shape.body,
        contentType: shape.type,
        ignorable: shape.ignorable === true || name in IGNORES_BODY,
      });
    }
  }
  if (route.doc.form) {
    for (const shape of bodyShapes({}).slice(0, 4)) {
      probes.push({ ...base, shape: shape.shape, path: concrete, body: shape.body, contentType: shape.type });
    }
    const textFile = new FormData();
    textFile.append("file", "a string where a file goes");
    probes.push({ ...base, shape: "a string where the file goes", path: concrete, body: textFile });
  }
  for (let index = 0; index < paramCount(template); index++) {
    for (const [shape, value] of Object.entries(ODD_PARAMS)) {
      const path = withParam(template, concrete, index, value);
      if (path === null) continue;
      probes.push({
        ...base,
        shape: `path parameter ${index + 1}: ${shape}`,
        path,
        body: route.doc.body ? "{}" : undefined,
        ignorable: name in V1_FREE_TEXT_PARAMS,
      });
    }
  }
  if (method === "GET") {
    for (const [shape, value] of Object.entries(ODD_QUERY_VALUES)) {
      for (const query of queryNames("", Object.keys(route.doc.query ?? {}))) {
        probes.push({
          ...base,
          shape: `query ${query}: ${shape}`,
          path: `${concrete}?${value(query)}`,
          ignorable: !(query in (route.doc.query ?? {})) || name in READS_QUERY_LENIENTLY,
        });
      }
    }
  }
  return probes;
}

Deno.test("malformed input: every route answers hostile bodies, parameters and queries with a 4xx sentence, and the server keeps its data", async (t) => {
  const leaks: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = loopbackOnlyFetch(leaks);
  const logged: string[] = [];
  try {
    await using app = await createTestApp({
      env: { SIMPLE_SSO_ENABLED: "1" },
      providerDeps: { fetch: globalThis.fetch },
      log: createLogger("error", (line) => logged.push(line)),
    });
    const w = await buildWorld(app);
    // Every provider on loopback, at a port nothing listens on: a probe that got through fails fast, locally.
    const saved = await app.json("/api/system/update-env", {
      headers: { Authorization: `Bearer ${w.tokens.admin}` },
      json: {
        LLMProvider: "generic-openai",
        GenericOpenAiBasePath: "http://127.0.0.1:9/v1",
        GenericOpenAiModelPref: "fake-model",
        GenericOpenAiTokenLimit: "4096",
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const key = (await makeApiKey(app, { name: "malformed sweep" }, w.tokens.admin)).key;
    // Settings a junk body could reset if a missing field read as "empty": each must survive the sweep.
    const kept: [string, unknown][] = [
      ["/api/system/default-system-prompt", { defaultSystemPrompt: "Answer from the harbour documents." }],
      ["/api/system/set-welcome-messages", { messages: [{ user: "Hi", response: "Welcome aboard." }] }],
      [`/api/workspace/${w.team.slug}/suggested-messages`, {
        messages: [{ heading: "Tides", message: "When is high tide?" }],
      }],
      [`/api/workspace/${w.team.slug}/update`, { openAiPrompt: "Answer in French.", topN: 6 }],
      ["/api/agents/settings", { maxSteps: 7 }],
      ["/api/admin/system-preferences", { text_splitter_chunk_size: 640 }],
    ];
    for (const [path, body] of kept) {
      const set = await app.json(path, {
        headers: { Authorization: `Bearer ${w.tokens.admin}` },
        json: body,
      });
      assert.equal(set.status, 200, `${path}: ${JSON.stringify(set.body)}`);
    }

    const served = [
      ...new Set((await appRoutes(createApp(app.deps))).map((route) => `${route.method} ${route.path}`)),
    ];
    const v1 = developerApi(app.deps).routes;
    const isV1 = (route: string) => / \/api\/v1(\/|$)/.test(route);

    await t.step("[malformed] every route the app serves is swept or skipped with a reason", () => {
      const missing = served.filter((route) =>
        !route.startsWith("ALL ") && !isV1(route) && !(route in ROUTES) && !(route in SKIPPED)
      );
      assert.deepEqual(
        missing,
        [],
        "new routes need a valid call in authorization_routes.ts or a SKIPPED line",
      );
      const unknownAll = served.filter((route) =>
        route.startsWith("ALL ") && !(route in MIDDLEWARE) &&
        !route.startsWith("ALL /api/")
      ); // not-yet families answer 501 with a sentence: authorization_test.ts
      assert.deepEqual(unknownAll, []);
      const v1Served = served.filter((route) => isV1(route) && !route.startsWith("ALL "));
      const v1Listed = new Set(v1.map((route) => `${route.method.toUpperCase()} /api/v1${route.path}`));
      assert.deepEqual(v1Served.filter((route) => !v1Listed.has(route)), []);
      const listed = [
        SKIPPED,
        IGNORES_BODY,
        BODYLESS_ACTIONS,
        VALID_SHAPES,
        PARAM_MEANINGS,
        FREE_TEXT_PARAMS,
        V1_FREE_TEXT_PARAMS,
        READS_QUERY_LENIENTLY,
      ].flatMap((table) => Object.keys(table));
      assert.deepEqual(listed.filter((route) => !served.includes(route)), [], "listed but no longer served");
    });

    const before = await keptRows(app);
    const documentsBefore = await documentFiles(app, [w.linkDoc, w.archiveDoc]);
    const probes = [
      ...served.filter((route) => route in ROUTES && !(route in SKIPPED)).flatMap((route) =>
        appProbes(route, w, w.tokens.admin)
      ),
      ...v1.flatMap((route) => v1Probes(route, w, key)),
    ];
    const problems: string[] = [];
    for (const probe of probes) {
      const answer = await send(app, probe);
      const where = `${probe.route} [${probe.shape}] ${probe.method} ${
        probe.path.slice(0, 120)
      } → ${answer.status}`;
      const leak = leakProblem(answer, app);
      if (leak) problems.push(`${where}: ${leak}`);
      if (answer.status >= 500 && answer.status !== probe.documented) {
        problems.push(`${where}: ${answer.text.slice(0, 200)}`);
        continue;
      }
      if (answer.status < 400 && !refusedInBody(answer)) {
        if (!probe.ignorable) problems.push(`${where}: accepted (${answer.text.slice(0, 160)})`);
        continue;
      }
      if (probe.method === "HEAD") continue; // a HEAD answer has no body to carry a sentence
      const unclear = sentenceProblem(messageOf(answer));
      if (unclear) problems.push(`${where}: ${unclear}`);
    }
    await t.step(
      "[malformed] no hostile shape gets a 5xx, an accepted answer, an unclear message or a leak",
      () => {
        assert.deepEqual(problems, []);
        assert.deepEqual(logged.filter((line) => /Unhandled error/.test(line)), []);
      },
    );

    await t.step("[malformed] no probe reached anything but loopback", () => {
      assert.deepEqual(leaks, []);
    });

    await t.step(
      "[malformed] afterwards the server answers and holds the same data, unpolluted",
      async () => {
        const ping = await app.request("/api/ping");
        assert.equal(ping.status, 200);
        assert.deepEqual(await ping.json(), { online: true });
        const after = await keptRows(app);
        const changed = [...before.keys()].filter((row) => before.get(row) !== after.get(row)).map((row) =>
          `${row}: ${before.get(row)} → ${after.get(row) ?? "gone"}`
        );
        assert.deepEqual(changed, []);
        assert.deepEqual(await documentFiles(app, [w.linkDoc, w.archiveDoc]), documentsBefore);
        // deno-lint-ignore no-explicit-any
        const blank: any = {};
        assert.equal(blank.polluted, undefined);
        assert.equal(blank.role, undefined);
      },
    );
  } finally {
    globalThis.fetch = realFetch;
  }
});
