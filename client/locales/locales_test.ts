import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import en from "./en.json" with { type: "json" };

const ROOTS = ["../", "../../server/pages/"].map((path) => fileURLToPath(new URL(path, import.meta.url)));

function* sources(directory: string): Generator<string> {
  for (const entry of Deno.readDirSync(directory)) {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.(tsx?)$/.test(entry.name) && !entry.name.endsWith("_test.ts")) yield path;
  }
}

/** A key exists as a string, or as i18next plural forms (`key_one`, `key_other`). */
function has(tree: unknown, key: string): boolean {
  return exists(tree, key) || (exists(tree, `${key}_one`) && exists(tree, `${key}_other`));
}

function exists(tree: unknown, key: string): boolean {
  let node = tree as Record<string, unknown> | undefined;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return false;
    node = node[part] as Record<string, unknown>;
  }
  return typeof node === "string";
}

Deno.test("every literal i18n key the UI uses exists in locales/en.json", () => {
  const missing: string[] = [];
  let checked = 0;
  for (const root of ROOTS) {
    for (const file of sources(root)) {
      const text = Deno.readTextFileSync(file);
      for (const match of text.matchAll(/\bt\(\s*"([a-zA-Z0-9_.\/-]+)"/g)) {
        checked++;
        if (!has(en, match[1])) missing.push(`${match[1]} (${file.split("/").slice(-2).join("/")})`);
      }
    }
  }
  assert.ok(checked > 100, `found ${checked} keys to check`);
  assert.deepEqual(missing, []);
});

Deno.test("locales/en.json has no empty strings", () => {
  const empty: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === "string") {
      if (node.trim() === "") empty.push(path);
    } else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) walk(value, path ? `${path}.${key}` : key);
    }
  };
  walk(en, "");
  assert.deepEqual(empty, []);
});
