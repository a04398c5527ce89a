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

// Issue 24: the translations and the components.
import { localeProblems } from "./locale_rules.ts";
import { literalTexts } from "./literal_text.ts";
import { SUPPORTED_LANGUAGES } from "../../shared/languages.ts";

const LOCALES = fileURLToPath(new URL("./", import.meta.url));
const PRESENT = SUPPORTED_LANGUAGES.filter((code) => {
  try {
    return Deno.statSync(`${LOCALES}/${code}.json`).isFile;
  } catch {
    return false;
  }
});

Deno.test("every locale file present has every key of en.json, its language's plural forms, the same marks", () => {
  assert.ok(PRESENT.includes("en"));
  for (const code of PRESENT.filter((code) => code !== "en")) {
    const locale = JSON.parse(Deno.readTextFileSync(`${LOCALES}/${code}.json`));
    const problems = localeProblems(en, locale, code);
    assert.deepEqual(problems.slice(0, 20), [], `${code}.json: ${problems.length} problems`);
  }
  // Only the languages of shared/languages.ts have files: a stray one would never be offered.
  const files = [...Deno.readDirSync(LOCALES)].map((entry) => entry.name).filter((name) =>
    name.endsWith(".json")
  );
  assert.deepEqual(files.map((name) => name.slice(0, -5)).sort(), [...PRESENT].sort());
});

Deno.test("the locale rules catch what a translation can get wrong", () => {
  const source = {
    a: "Hello {{name}}",
    b: { files_one: "{{count}} file", files_other: "{{count}} files" },
    c: "<0>Read</0> more",
  };
  assert.deepEqual(localeProblems(source, source, "en"), []);
  const polish = {
    a: "Cześć {{imie}}",
    b: { files_one: "{{count}} plik", files_few: "{{count}} pliki", files_other: "{{count}} pliku" },
    c: " ",
    d: "extra",
  };
  assert.deepEqual(localeProblems(source, polish, "pl"), [
    "marks differ a: [{{name}}] vs [{{imie}}]",
    "missing b.files_many",
    "empty c",
    "extra d",
  ]);
  // Arabic needs all six forms; Japanese only "other", but English's "one" stays.
  const arabic = localeProblems(source, { ...source, b: { files_one: "x", files_other: "y" } }, "ar");
  assert.deepEqual(arabic, [
    "missing b.files_zero",
    "missing b.files_two",
    "missing b.files_few",
    "missing b.files_many",
  ]);
  assert.deepEqual(localeProblems(source, source, "ja"), []);
});

/**
 * Example values in placeholders (URLs, paths, a command, a header, an id) read the same in every language,
 * as do the product's name and the code of a language.
 */
const EXAMPLE_VALUES = new Set([
  "https://example.com",
  "/summary",
  "Lectern",
  "/srv/data/shop.db",
  "npx",
  "API_KEY=…",
  "https://…/mcp",
  "Authorization: Bearer …",
  "https://youtube.com/watch?v=abc123",
  "en",
  "jdoe@example.com",
  "abcd1234",
  "!*.js, images/*, .DS_Store, bin/*",
]);

Deno.test("no literal text is left in components: JSX text and read attributes come from t()", () => {
  const found: string[] = [];
  let files = 0;
  for (const root of ROOTS) {
    for (const file of sources(root)) {
      if (!file.endsWith(".tsx")) continue;
      files++;
      for (const literal of literalTexts(Deno.readTextFileSync(file), file)) {
        if (EXAMPLE_VALUES.has(literal.text)) continue;
        found.push(
          `${file.split("/").slice(-2).join("/")}:${literal.line} ${literal.where} "${literal.text}"`,
        );
      }
    }
  }
  assert.ok(files > 100, `scanned ${files} components`);
  assert.deepEqual(found, []);
});

Deno.test("the literal-text scan finds text, read attributes and literal children, not t() calls", () => {
  const source = `export const A = ({ n }) => (
    <div title="Hi" aria-label={n ? "Open" : t("x")} data-id="keep" className="not read">
      Hello {n} {"World"} <b>{n && "Shown"}</b> {t("ok")} · 3 <Field label="Name" />
    </div>
  );`;
  assert.deepEqual(literalTexts(source).map((found) => `${found.where}:${found.text}`), [
    "title:Hi",
    "aria-label:Open",
    "text:Hello",
    "text:World",
    "text:Shown",
    "label:Name",
  ]);
});
