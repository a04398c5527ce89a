// A server start loads what it uses (issue 21), and what it left out loads when first needed: a real server
// process on fresh storage runs its migrations and answers with LanceDB's native library not loaded; the first
// document embedded loads it, and the vectors are there to search through the developer API (loaded lazily too).
import assert from "node:assert/strict";
import { startServerProcess } from "../../server/testing/process.ts";

/** Node built-ins a start does not use, loaded on first use (server/hash.ts, system/status.ts, agents' sql_db.ts). */
const DEFERRED_BUILTINS = ["node:crypto", "node:fs/promises", "node:sqlite"];

/** The native libraries (.node, .so) mapped into a process. */
function nativeLibraries(pid: number): string[] {
  const maps = Deno.readTextFileSync(`/proc/${pid}/maps`);
  const paths = new Set<string>();
  for (const line of maps.split("\n")) {
    const path = line.split(/\s+/).slice(5).join(" ");
    if (/\.(node|so)(\.\d+)*$/.test(path)) paths.add(path);
  }
  return [...paths];
}

Deno.test({
  name: "a fresh server migrates its database and starts without LanceDB; the first embed loads it",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const storage = await Deno.makeTempDir({ prefix: "lectern-startup-" });
    try {
      await using server = await startServerProcess({ STORAGE_DIR: storage }, 180_000);
      assert.match(server.output(), /Database migrated/);
      const atStart = nativeLibraries(server.pid);
      assert.ok(atStart.some((path) => /libsql/.test(path)), atStart.join("\n"));
      assert.ok(!atStart.some((path) => /lancedb/i.test(path)), atStart.join("\n"));

      const created = await (await fetch(`${server.url}/api/workspace/new`, {
        method: "POST",
        body: JSON.stringify({ name: "Herons" }),
      })).json();
      assert.equal(created.workspace.slug, "herons");
      const form = new FormData();
      form.append(
        "file",
        new File(["Grey herons wait in the shallows of slow rivers. ".repeat(40)], "herons.txt"),
      );
      const embedded = await fetch(`${server.url}/api/workspace/herons/upload-and-embed`, {
        method: "POST",
        body: form,
      });
      const answer = await embedded.json();
      assert.equal(answer.success, true, JSON.stringify(answer));
      assert.ok(nativeLibraries(server.pid).some((path) => /lancedb/i.test(path)));
      // Through the developer API, itself loaded on its first call.
      const made = await (await fetch(`${server.url}/api/system/generate-api-key`, {
        method: "POST",
        body: "{}",
      })).json();
      const search = await (await fetch(`${server.url}/api/v1/workspace/herons/vector-search`, {
        method: "POST",
        headers: { Authorization: `Bearer ${made.apiKey.secret}` },
        body: JSON.stringify({ query: "Where do herons wait?", topN: 1 }),
      })).json();
      assert.ok(search.results?.length >= 1, JSON.stringify(search));
    } finally {
      await Deno.remove(storage, { recursive: true });
    }
  },
});

interface GraphModule {
  specifier: string;
  dependencies?: { isDynamic?: boolean; code?: { specifier: string } }[];
}

/**
 * server/serve.ts and what it imports statically: what every start evaluates (main.ts and cli/main.ts load it
 * with `import()`, as it loads what is lazy). The modules' specifiers, and each Node built-in with a module that
 * imports it.
 */
async function startGraph(): Promise<{ evaluated: Set<string>; builtins: Map<string, string> }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "server/serve.ts"],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.equal(output.code, 0);
  const graph = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: GraphModule[];
    redirects: Record<string, string>;
  };
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const evaluated = new Set<string>();
  const builtins = new Map<string, string>();
  const pending = [...graph.roots];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (evaluated.has(specifier)) continue;
    evaluated.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic || !dependency.code) continue;
      const target = dependency.code.specifier;
      if (target.startsWith("node:")) builtins.set(target, specifier);
      else pending.push(graph.redirects[target] ?? target);
    }
  }
  assert.ok(evaluated.size > 100, `only ${evaluated.size} modules: the walk is wrong`);
  return { evaluated, builtins };
}

Deno.test("the modules a server start evaluates import no Node built-in that a start does not use", async () => {
  const { builtins } = await startGraph();
  assert.ok(builtins.has("node:path"), "node:path, which a start uses, was not found: the walk is wrong");
  for (const builtin of DEFERRED_BUILTINS) {
    assert.ok(!builtins.has(builtin), `${builtins.get(builtin)} imports ${builtin} when the server starts`);
  }
});

/**
 * Modules a start leaves to their first use: the API's routes but /api/ping (server/api_routes.ts, with the
 * services and contracts they import), the control socket's commands, the sweep of parsed files, the embeds'
 * service (the CORS check of a widget call).
 */
const DEFERRED_MODULES = [
  "server/api_routes.ts",
  "server/system/routes.ts",
  "server/auth/routes.ts",
  "server/chat/routes.ts",
  "server/workspaces/routes.ts",
  "server/documents/routes.ts",
  "server/browser_extension/routes.ts",
  "server/embeds/service.ts",
  "server/backup/service.ts",
  "server/cli/reset_password.ts",
  "server/attachments/service.ts",
];

Deno.test("a server start evaluates none of the API's routes but /api/ping, nor the modules of a command", async () => {
  const { evaluated } = await startGraph();
  const root = new URL("../../", import.meta.url).href;
  assert.ok(evaluated.has(`${root}server/app.ts`), "server/app.ts was not found: the walk is wrong");
  for (const module of DEFERRED_MODULES) {
    assert.ok(!evaluated.has(`${root}${module}`), `${module} is evaluated when the server starts`);
  }
});
