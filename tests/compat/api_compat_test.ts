import assert from "node:assert/strict";
import { createApp } from "../../server/app.ts";
import { appRoutes } from "../../server/http/lazy_routes.ts";
import { type Call, type Fixture, FIXTURES, type Server, SETUP_VALUES, type Who, World } from "./fixtures.ts";

/**
 * Walks docs/api-compat.md against a running Lectern (issue 14): every call marked `answered` is made as the
 * reference's web frontend makes it and must not answer 404 or 5xx, nor lack a field the table says the
 * frontend reads; every setup-complete key marked `answered` must be there for its callers.
 */

const DOC = new URL("../../docs/api-compat.md", import.meta.url);

export const CALL_HEADER = "| Method | Path | Frontend reads | Status | Note |";
export const KEY_HEADER = "| Key | Status | Note |";
const SUMMARY_HEADER = "| Status | Calls |";
/** Sections of prose, without a table of calls. */
const PROSE = new Set(["How this table was built", "Calls issue 14 must add"]);

export type Status = { kind: "answered" } | { kind: "different" } | { kind: "not yet"; issue: number };

export interface CallRow {
  section: string;
  line: number;
  method: string;
  path: string;
  reads: string[];
  status: Status;
  note: string;
}

export interface KeyRow {
  line: number;
  key: string;
  status: Status;
  note: string;
}

export interface CompatTable {
  calls: CallRow[];
  keys: KeyRow[];
  /** The Summary's `| Status | Calls |` rows. */
  summary: Map<string, number>;
}

/** The cells of a table line; `\|` is a pipe inside a cell. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
}

export function parseStatus(text: string, where: string): Status {
  if (text === "answered") return { kind: "answered" };
  if (text === "different") return { kind: "different" };
  const notYet = /^not yet \(#(\d+)\)$/.exec(text);
  if (notYet) return { kind: "not yet", issue: Number(notYet[1]) };
  throw new Error(`${where}: Status "${text}" is none of answered, different, not yet (#N)`);
}

/** Parses every table of the compatibility document; throws on any header or status it does not know. */
export function parseCompatTable(markdown: string): CompatTable {
  const table: CompatTable = { calls: [], keys: [], summary: new Map() };
  const lines = markdown.split("\n");
  let section = "";
  let header: string | null = null;
  let sawSeparator = false;
  const callSections: string[] = [];
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const where = `docs/api-compat.md:${index + 1}`;
    if (line.startsWith("## ")) {
      section = line.slice(3).trim();
      header = null;
      continue;
    }
    if (!line.startsWith("|")) {
      header = null;
      continue;
    }
    if (header === null) {
      header = line;
      sawSeparator = false;
      const expected = section === "Summary"
        ? SUMMARY_HEADER
        : section === "setup-complete keys"
        ? KEY_HEADER
        : CALL_HEADER;
      if (PROSE.has(section) || section === "") {
        throw new Error(`${where}: a table in "${section}", which the test does not know how to read`);
      }
      if (cells(line).join(" | ") !== cells(expected).join(" | ")) {
        throw new Error(`${where}: the table header of "${section}" changed: ${line} (expected ${expected})`);
      }
      if (expected === CALL_HEADER) callSections.push(section);
      continue;
    }
    if (!sawSeparator) {
      if (!/^\|( *-{3,} *\|)+$/.test(line)) throw new Error(`${where}: no separator line under the header`);
      sawSeparator = true;
      continue;
    }
    const row = cells(line);
    const width = cells(header).length;
    if (row.length !== width) throw new Error(`${where}: ${row.length} cells, the header has ${width}`);
    if (header === SUMMARY_HEADER) {
      table.summary.set(row[0], Number(row[1]));
    } else if (header === KEY_HEADER) {
      const [key, status, note] = row;
      if (!/^[A-Za-z0-9]+$/.test(key)) throw new Error(`${where}: "${key}" is not a setup-complete key`);
      table.keys.push({ line: index + 1, key, status: parseStatus(status, where), note });
    } else {
      const [method, path, reads, status, note] = row;
      if (!/^(GET|POST|PUT|PATCH|DELETE)$/.test(method)) throw new Error(`${where}: method "${method}"`);
      if (!/^\/api\/[^\s?]*$/.test(path)) throw new Error(`${where}: path "${path}" is not under /api`);
      table.calls.push({
        section,
        line: index + 1,
        method,
        path,
        reads: reads.split(",").map((field) => field.trim()).filter(Boolean),
        status: parseStatus(status, where),
        note,
      });
    }
  }
  if (callSections.length === 0 || table.keys.length === 0) {
    throw new Error("docs/api-compat.md: no call tables or no setup-complete keys table found");
  }
  return table;
}

/** The value at a dotted path (`localFiles.items`); arrays are looked into, element by element. */
export function hasField(value: unknown, path: string): boolean {
  const [head, ...rest] = path.split(".");
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => hasField(item, path));
  if (value === null || typeof value !== "object" || !(head in value)) return false;
  return rest.length === 0 || hasField((value as Record<string, unknown>)[head], rest.join("."));
}

/** What one answer showed: its status, its content type, and the JSON objects it carried (SSE: its frames). */
export interface Seen {
  status: number;
  contentType: string;
  objects: unknown[];
  bodyBytes: number;
  frames: number;
}

/** Reads SSE `data:` frames until the body ends or an `all_complete` frame (embed-progress stays open). */
async function readSse(response: Response, label: string): Promise<unknown[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: unknown[] = [];
  let buffer = "";
  // A guard, not a timing assertion: a stream that never ends must not hang the suite.
  const guard = setTimeout(() => reader.cancel("stream did not end").catch(() => {}), 15_000);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split("\n").filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).replace(/^ /, "")).join("\n");
        if (!data) continue;
        let frame: unknown;
        try {
          frame = JSON.parse(data);
        } catch {
          throw new Error(`${label}: an SSE frame is not JSON: ${JSON.stringify(block)}`);
        }
        frames.push(frame);
        if ((frame as { type?: unknown }).type === "all_complete") {
          await reader.cancel();
          return frames;
        }
      }
    }
  } finally {
    clearTimeout(guard);
  }
  if (buffer.trim()) throw new Error(`${label}: the stream ended inside a frame: ${JSON.stringify(buffer)}`);
  return frames;
}

/**
 * Opens a `(ws)` call's socket as a page of the instance would, and reads its JSON messages until the server
 * waits for the person, fails or closes. An opened socket counts as 200; one closed with 44xx as that status
 * minus 4000 (Lectern's refusals).
 */
async function observeSocket(world: World, call: Call, label: string): Promise<Seen> {
  const server = call.server ?? world.multi;
  const token = call.socketToken ? server.tokens[call.as ?? "admin"] : null;
  // Deno's constructor takes handshake headers: the Origin a browser sends (the project's "dom" lib lacks it).
  const DenoSocket = WebSocket as unknown as new (
    url: string,
    options: { protocols: string[]; headers: HeadersInit },
  ) => WebSocket;
  const socket = new DenoSocket(`${server.base.replace(/^http/, "ws")}${call.path}`, {
    protocols: token ? ["lectern-agent", `bearer.${token}`] : [],
    headers: { Origin: server.base },
  });
  const seen: Seen = { status: 0, contentType: "", objects: [], bodyBytes: 0, frames: 0 };
  await new Promise<void>((resolve) => {
    // A guard, not a timing assertion: a socket that never ends must not hang the suite.
    const guard = setTimeout(() => socket.close(), 15_000);
    socket.onopen = () => (seen.status = 200);
    socket.onerror = () => {};
    socket.onmessage = (event) => {
      let message: { type?: unknown };
      try {
        message = JSON.parse(String(event.data));
      } catch {
        throw new Error(`${label}: a socket message is not JSON: ${String(event.data).slice(0, 200)}`);
      }
      seen.objects.push(message);
      seen.bodyBytes += String(event.data).length;
      if (message.type === "WAITING_ON_INPUT") {
        socket.send(JSON.stringify({ type: "awaitingFeedback", feedback: "/exit" }));
      }
    };
    socket.onclose = (event) => {
      clearTimeout(guard);
      if (event.code >= 4400 && event.code < 4500) seen.status = event.code - 4000;
      resolve();
    };
  });
  return seen;
}

/** Makes one call and reads its answer the way the row says the frontend reads it. */
async function observe(world: World, call: Call, reads: string[], label: string): Promise<Seen> {
  if (reads.includes("(ws)")) return await observeSocket(world, call, label);
  const response = await world.send(call);
  const contentType = response.headers.get("content-type") ?? "";
  const seen: Seen = { status: response.status, contentType, objects: [], bodyBytes: 0, frames: 0 };
  if (reads.includes("(sse)") && contentType.startsWith("text/event-stream")) {
    seen.objects = await readSse(response, label);
    seen.frames = seen.objects.length;
    return seen;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  seen.bodyBytes = bytes.length;
  // Exactly JSON: `application/jsonl` (an export of JSON lines) is a file, not one JSON answer.
  if (/^application\/json\s*(;|$)/.test(contentType) && bytes.length > 0) {
    const text = new TextDecoder().decode(bytes);
    try {
      seen.objects = [JSON.parse(text)];
    } catch {
      throw new Error(`${label}: the answer says it is JSON but is not: ${text.slice(0, 200)}`);
    }
  }
  return seen;
}

/**
 * The problems of a row's answers: a 404 or 5xx, a refusal where success was expected, a field of "Frontend
 * reads" that no answer carried, an SSE or blob answer that is not one. Empty when the row is answered.
 */
export function problemsOf(
  row: Pick<CallRow, "method" | "path" | "reads">,
  fixture: Pick<Fixture, "absent" | "emptyBlob" | "status">,
  answers: { call: Pick<Call, "method" | "path" | "refusal">; seen: Seen }[],
): string[] {
  const problems: string[] = [];
  const marker = (field: string) => field.startsWith("(");
  for (const { call, seen } of answers) {
    const what = `${call.method} ${call.path} answered ${seen.status}`;
    if (typeof call.refusal === "number") {
      if (seen.status !== call.refusal) {
        problems.push(`${what}: the fixture expected the refusal ${call.refusal}`);
      }
    } else if (seen.status === 404) problems.push(`${what}: a 404 for a call the table marks answered`);
    else if (seen.status === 501) problems.push(`${what}: the answer of a call not built yet`);
    else if (seen.status >= 500) problems.push(`${what}: a server error`);
    else if (call.refusal && (seen.status < 400 || seen.status >= 500)) {
      problems.push(`${what}: the fixture expected a refusal (4xx) here`);
    } else if (!call.refusal && (seen.status < 200 || seen.status >= 300)) {
      problems.push(
        `${what} ${JSON.stringify(seen.objects[0] ?? null)}: the call as the frontend makes it failed`,
      );
    } else if (!call.refusal && fixture.status !== undefined && seen.status !== fixture.status) {
      problems.push(`${what}: the frontend needs exactly ${fixture.status}`);
    }
    if (call.refusal || seen.status >= 300) continue;
    if (row.reads.includes("(sse)")) {
      if (!seen.contentType.startsWith("text/event-stream")) {
        problems.push(`${what}: content type "${seen.contentType}", not text/event-stream`);
      } else if (seen.frames === 0) problems.push(`${what}: the event stream carried no frame`);
    }
    const body = row.reads.find((field) => ["(blob)", "(text)", "(stream)", "(page)"].includes(field));
    if (body && seen.bodyBytes === 0 && !(seen.status === 204 && fixture.emptyBlob)) {
      problems.push(`${what}: no body came back for ${body}`);
    }
  }
  const objects = answers.flatMap(({ seen }) => seen.objects);
  for (const field of row.reads) {
    if (marker(field) || fixture.absent?.[field]) continue;
    if (!objects.some((object) => hasField(object, field))) {
      problems.push(
        `no answer carried "${field}", which the frontend reads (answers: ${
          JSON.stringify(objects).slice(0, 600)
        })`,
      );
    }
  }
  return problems;
}

/** Lectern's routes, `METHOD path` with every parameter written `:`. */
async function routeKeys(world: World): Promise<Set<string>> {
  const shape = (path: string) => path.replace(/\/:[^/]+/g, "/:");
  return new Set(
    (await appRoutes(createApp(world.multi.app.deps))).filter((route) =>
      route.method !== "ALL" && !route.path.endsWith("*")
    )
      .map((route) => `${route.method} ${shape(route.path)}`),
  );
}
const routeKey = (row: CallRow) => `${row.method} ${row.path.replace(/\/:[^/]+/g, "/:")}`;

/**
 * For `GET /api/setup-complete`, the `results.Key` fields whose key the keys table does not mark answered:
 * that table is where each key's status is kept, so such a key is not required of the call's row.
 */
function keysNotAnswered(row: CallRow, table: CompatTable): Record<string, string> {
  if (row.path !== "/api/setup-complete") return {};
  const absent: Record<string, string> = {};
  for (const key of table.keys) {
    if (key.status.kind === "answered") continue;
    const status = key.status.kind === "not yet" ? `not yet (#${key.status.issue})` : key.status.kind;
    absent[`results.${key.key}`] = `${status} in the setup-complete keys table`;
  }
  return absent;
}

Deno.test("docs/api-compat.md parses, and its Summary counts what its tables hold", async () => {
  const table = parseCompatTable(await Deno.readTextFile(DOC));
  const count = (predicate: (row: CallRow) => boolean) => table.calls.filter(predicate).length;
  assert.equal(table.summary.get("answered"), count((row) => row.status.kind === "answered"));
  assert.equal(table.summary.get("different"), count((row) => row.status.kind === "different"));
  assert.equal(table.summary.get("not yet, all issues"), count((row) => row.status.kind === "not yet"));
  const issues = new Set(
    table.calls.flatMap((row) => row.status.kind === "not yet" ? [row.status.issue] : []),
  );
  for (const issue of issues) {
    assert.equal(
      table.summary.get(`not yet (#${issue})`),
      count((row) => row.status.kind === "not yet" && row.status.issue === issue),
      `Summary row "not yet (#${issue})"`,
    );
  }
  const keys = new Set<string>();
  for (const row of table.keys) {
    assert.ok(!keys.has(row.key), `setup-complete key ${row.key} is listed twice`);
    keys.add(row.key);
  }
});

Deno.test("the table parser fails loudly on a changed header or an unknown status", () => {
  const doc = (header: string, status: string) =>
    [
      "## models/x.js",
      "",
      header,
      "| --- | --- | --- | --- | --- |",
      `| GET | /api/ping | online | ${status} |  |`,
      "",
      "## setup-complete keys",
      "",
      KEY_HEADER,
      "| --- | --- | --- |",
      "| VectorDB | answered | In the public subset too. |",
    ].join("\n");
  assert.equal(parseCompatTable(doc(CALL_HEADER, "answered")).calls[0].path, "/api/ping");
  assert.deepEqual(parseCompatTable(doc(CALL_HEADER, "not yet (#14)")).calls[0].status, {
    kind: "not yet",
    issue: 14,
  });
  assert.throws(
    () => parseCompatTable(doc("| Method | Path | Reads | Status | Note |", "answered")),
    /docs\/api-compat\.md:3: the table header of "models\/x\.js" changed/,
  );
  for (const status of ["done", "not yet", "not yet (14)", "Answered"]) {
    assert.throws(
      () => parseCompatTable(doc(CALL_HEADER, status)),
      /Status ".*" is none of answered/,
      status,
    );
  }
  assert.throws(
    () =>
      parseCompatTable(
        doc(CALL_HEADER, "answered").replace("| VectorDB | answered |", "| VectorDB | maybe |"),
      ),
    /Status "maybe" is none of/,
  );
});

Deno.test("the walker's check catches a 404, a 5xx, a failed call and a missing field", () => {
  const row = { method: "GET", path: "/api/workspace/:slug", reads: ["workspace", "workspace.documents"] };
  const call = { method: "GET", path: "/api/workspace/harbour" };
  const seen = (status: number, object: unknown): Seen => ({
    status,
    contentType: "application/json",
    objects: [object],
    bodyBytes: 10,
    frames: 0,
  });
  assert.deepEqual(problemsOf(row, {}, [{ call, seen: seen(200, { workspace: { documents: [] } }) }]), []);
  assert.match(problemsOf(row, {}, [{ call, seen: seen(404, {}) }])[0], /answered 404: a 404/);
  assert.match(problemsOf(row, {}, [{ call, seen: seen(502, {}) }])[0], /a server error/);
  assert.match(problemsOf(row, {}, [{ call, seen: seen(400, {}) }])[0], /failed/);
  const missing = problemsOf(row, {}, [{ call, seen: seen(200, { workspace: { name: "Harbour" } }) }]);
  assert.deepEqual(missing.length, 1);
  assert.match(missing[0], /no answer carried "workspace\.documents"/);
  assert.deepEqual(
    problemsOf(row, { absent: { "workspace.documents": "a reason" } }, [{
      call,
      seen: seen(200, { workspace: {} }),
    }]),
    [],
  );
  const sse = { ...row, reads: ["(sse)", "uuid"] };
  assert.match(problemsOf(sse, {}, [{ call, seen: seen(200, { uuid: "x" }) }])[0], /not text\/event-stream/);
  const blob = { ...row, reads: ["(blob)"] };
  const empty: Seen = { status: 204, contentType: "", objects: [], bodyBytes: 0, frames: 0 };
  assert.match(problemsOf(blob, {}, [{ call, seen: empty }])[0], /no body came back/);
  assert.deepEqual(problemsOf(blob, { emptyBlob: "no audio" }, [{ call, seen: empty }]), []);
  const gone = { ...call, refusal: 404 };
  assert.deepEqual(
    problemsOf(row, {}, [{ call, seen: seen(200, { workspace: { documents: [] } }) }, {
      call: gone,
      seen: seen(404, { workspace: null }),
    }]),
    [],
  );
  assert.match(problemsOf(row, {}, [{ call: gone, seen: seen(400, {}) }])[0], /expected the refusal 404/);
  assert.match(
    problemsOf(row, { status: 200 }, [{ call, seen: seen(201, { workspace: { documents: [] } }) }])[0],
    /exactly 200/,
  );
});

Deno.test({
  name:
    "every call docs/api-compat.md marks answered is answered with the fields the reference's frontend reads",
  async fn(t) {
    const table = parseCompatTable(await Deno.readTextFile(DOC));
    await using world = await World.create();
    const routes = await routeKeys(world);

    for (const row of table.calls) {
      if (row.status.kind !== "answered") continue;
      const key = `${row.method} ${row.path}`;
      await t.step(key, async () => {
        assert.ok(
          routes.has(routeKey(row)),
          `docs/api-compat.md:${row.line} marks ${key} answered, but Lectern has no such route`,
        );
        const fixture = FIXTURES[key];
        assert.ok(
          fixture,
          `docs/api-compat.md:${row.line} marks ${key} answered, but the test cannot make that call: ` +
            `add a fixture for "${key}" to tests/compat/fixtures.ts`,
        );
        const absent = { ...fixture.absent, ...keysNotAnswered(row, table) };
        const calls = await fixture.calls(world);
        const answers = [];
        for (const call of calls) answers.push({ call, seen: await observe(world, call, row.reads, key) });
        const problems = problemsOf(row, { ...fixture, absent }, answers);
        assert.deepEqual(problems, [], `docs/api-compat.md:${row.line} ${key}:\n${problems.join("\n")}`);
      });
    }

    await t.step("setup-complete: every key marked answered reaches the callers its Note names", async () => {
      // Settings that are omitted while unset get a value on both instances, as an admin would save them.
      for (const server of [world.open, world.multi]) {
        await world.api(server, "POST", "/api/system/update-env", {
          json: SETUP_VALUES,
          as: server === world.open ? "none" : "admin",
        });
      }
      const results = async (server: Server, as: Who) =>
        (await world.api(server, "GET", "/api/setup-complete", { as })).results as Record<string, unknown>;
      const callers = {
        "open instance, no token": await results(world.open, "none"),
        "multi-user, admin token": await results(world.multi, "admin"),
        "multi-user, manager token": await results(world.multi, "manager"),
        "multi-user, no token": await results(world.multi, "none"),
      };
      const problems: string[] = [];
      for (const row of table.keys) {
        if (row.status.kind !== "answered") continue;
        let who: (keyof typeof callers)[];
        if (/public subset/i.test(row.note)) who = Object.keys(callers) as (keyof typeof callers)[];
        else if (/Admin\/manager token or open instance only/.test(row.note)) {
          who = ["open instance, no token", "multi-user, admin token", "multi-user, manager token"];
        } else {
          problems.push(
            `docs/api-compat.md:${row.line} ${row.key}: the Note does not say for which callers (public subset, ` +
              `or admin/manager token or open instance only); the test cannot check it`,
          );
          continue;
        }
        for (const caller of who) {
          if (!(row.key in callers[caller])) {
            problems.push(
              `docs/api-compat.md:${row.line} ${row.key} is marked answered but setup-complete lacks it for ` +
                `the ${caller}` +
                (row.key in SETUP_VALUES ? "" : ` (if it is omitted while unset, give it a ` +
                  `value in SETUP_VALUES of tests/compat/fixtures.ts)`),
            );
          }
        }
      }
      assert.deepEqual(problems, [], problems.join("\n"));
    });

    await t.step("every fixture is for a call of the table", () => {
      const rows = new Set(table.calls.map((row) => `${row.method} ${row.path}`));
      const stale = Object.keys(FIXTURES).filter((key) => !rows.has(key));
      assert.deepEqual(stale, [], `fixtures for calls the table does not list: ${stale.join(", ")}`);
    });
  },
});
