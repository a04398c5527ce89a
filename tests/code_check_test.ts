import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkCode, describeFailures, importSpecifiers, readJsonCasts } from "../scripts/check_code.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Writes `files` (path relative to the tree → text) under a new temporary directory. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "lectern-code-check-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}

Deno.test("the repository has no import cycle among server/, shared/, db/ and client/", async () => {
  const report = await checkCode(ROOT);
  assert.deepEqual(describeFailures({ ...report, casts: [] }), []);
});

Deno.test("the repository's handlers parse request bodies with a schema, never a readJson() cast", async () => {
  const report = await checkCode(ROOT);
  assert.deepEqual(describeFailures({ ...report, cycles: [] }), []);
});

Deno.test("checkCode() names every file of an import cycle, type-only and re-export edges included", async () => {
  const root = await tree({
    "server/deps.ts":
      'import type { Service } from "./feature/service.ts";\nexport interface Deps { s: Service }\n',
    "server/feature/service.ts": 'export { helper } from "../shared_helper.ts";\nexport class Service {}\n',
    "server/shared_helper.ts":
      'import type { Deps } from "./deps.ts";\nexport const helper = (d: Deps) => d;\n',
    "server/leaf.ts": 'import { helper } from "./shared_helper.ts";\nexport const x = helper;\n',
    "client/a.tsx": 'import { b } from "./b.tsx";\nexport const a = b;\n',
    "client/b.tsx": "import {\n  a,\n} from './a.tsx';\nexport const b = 1;\nexport { a };\n",
  });
  try {
    const report = await checkCode(root);
    assert.deepEqual(report.cycles, [
      ["client/a.tsx", "client/b.tsx"],
      ["server/deps.ts", "server/feature/service.ts", "server/shared_helper.ts"],
    ]);
    assert.deepEqual(report.casts, []);
    assert.deepEqual(describeFailures(report), [
      "Import cycle: client/a.tsx -> client/b.tsx -> client/a.tsx",
      "Import cycle: server/deps.ts -> server/feature/service.ts -> server/shared_helper.ts -> server/deps.ts",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkCode() finds a cycle through db/ and shared/ and a module importing itself", async () => {
  const root = await tree({
    "db/schema.ts": 'import { roles } from "../shared/roles.ts";\nexport const schema = roles;\n',
    "shared/roles.ts":
      'import type { schema } from "../db/schema.ts";\nexport const roles: typeof schema = [];\n',
    "server/self.ts": 'import * as self from "./self.ts";\nexport const me = self;\n',
  });
  try {
    const report = await checkCode(root);
    assert.deepEqual(report.cycles, [["db/schema.ts", "shared/roles.ts"], ["server/self.ts"]]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkCode() passes a tree whose imports point one way", async () => {
  const root = await tree({
    "server/deps.ts": 'import type { Store } from "./store.ts";\nexport interface Deps { store: Store }\n',
    "server/store.ts":
      'import { z } from "zod";\nimport type { Row } from "../db/schema.ts";\nexport type Store = Row;\n',
    "server/routes.ts": [
      'import type { Deps } from "./deps.ts";',
      'import { readJson } from "./http/body.ts";',
      "// readJson(c) as Record<string, unknown> was the old way (a comment is not code)",
      "export async function handler(deps: Deps, c: unknown) {",
      "  const body = Schema.parse(await readJson(c));",
      '  const later = await import("./deps.ts");',
      "  return { deps, body, later };",
      "}",
    ].join("\n"),
    "server/http/body.ts": "export const readJson = async (c: unknown) => c;\n",
    "db/schema.ts": "export type Row = { id: number };\n",
    "client/main.tsx": 'import { createRoot } from "react-dom/client";\nexport { createRoot };\n',
  });
  try {
    const report = await checkCode(root);
    assert.deepEqual(report, { cycles: [], casts: [] });
    assert.deepEqual(describeFailures(report), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkCode() lists each readJson() cast in server/ with its line, and none outside server/", async () => {
  const root = await tree({
    "server/a/routes.ts": [
      'import { readJson } from "../http/body.ts";',
      "export async function one(c: unknown) {",
      "  const body = await readJson(c) as Record<string, unknown>;",
      "  return body;",
      "}",
      "export async function two(c: unknown) {",
      '  const body = (await readJson(c, errorBody("x")) ?? {}) as { name?: unknown };',
      "  return body;",
      "}",
      "export async function three(c: unknown) {",
      "  return await readJson(",
      "    c,",
      "  ) as unknown;",
      "}",
    ].join("\n"),
    "server/http/body.ts": "export const readJson = async (c: unknown, _e?: unknown) => c;\n",
    "client/lib/api.ts": "export const x = (await readJson(c)) as string;\n",
  });
  try {
    const report = await checkCode(root);
    assert.deepEqual(report.casts, ["server/a/routes.ts:3", "server/a/routes.ts:7", "server/a/routes.ts:11"]);
    assert.deepEqual(describeFailures(report), [
      "Cast of readJson() at server/a/routes.ts:3: parse the body with a zod schema from shared/api instead",
      "Cast of readJson() at server/a/routes.ts:7: parse the body with a zod schema from shared/api instead",
      "Cast of readJson() at server/a/routes.ts:11: parse the body with a zod schema from shared/api instead",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("importSpecifiers() reads static imports and re-exports, not dynamic imports or comments", () => {
  const source = [
    "/**",
    ' * import { fake } from "./in_a_doc_comment.ts";',
    " */",
    'import "./side_effect.ts";',
    'import type { A } from "./a.ts";',
    'import B, { type C } from "./b.ts";',
    'export * from "./star.ts";',
    'export type { D } from "./d.ts";',
    "import {",
    "  e,",
    "  f,",
    '} from "./ef.ts";',
    'const g = await import("./dynamic.ts");',
    '// import { h } from "./commented.ts";',
  ].join("\n");
  assert.deepEqual(importSpecifiers(source).sort(), [
    "./a.ts",
    "./b.ts",
    "./d.ts",
    "./ef.ts",
    "./side_effect.ts",
    "./star.ts",
  ]);
});

Deno.test("readJsonCasts() ignores a parsed body and a cast of something else", () => {
  const source = [
    "const a = Input.parse(await readJson(c));",
    "const b = await readJson(c);",
    "const c2 = other(await readJson(c)) as string;",
    "const d = await readJson(c) as T;",
  ].join("\n");
  assert.deepEqual(readJsonCasts(source), [4]);
});
