import type { HLJSApi, Language, Mode } from "highlight.js";

/**
 * Code highlighting, loaded piece by piece: highlight.js's core arrives with the first code block that names a
 * language, and each language when a block of it first appears (the 36 of highlight.js's "common" build, by
 * their names and aliases, as before). Until then a block shows escaped plain text; `onHighlightChange`
 * listeners hear when a language arrives, so the messages render again.
 */
type Loader = () => Promise<{ default: (hljs: HLJSApi) => Language }>;

const LANGUAGES: Record<string, { aliases: string[]; load: Loader }> = {
  xml: {
    aliases: ["html", "xhtml", "rss", "atom", "xjb", "xsd", "xsl", "plist", "wsf", "svg"],
    load: () => import("highlight.js/lib/languages/xml"),
  },
  bash: { aliases: ["sh", "zsh"], load: () => import("highlight.js/lib/languages/bash") },
  c: { aliases: ["h"], load: () => import("highlight.js/lib/languages/c") },
  cpp: {
    aliases: ["cc", "c++", "h++", "hpp", "hh", "hxx", "cxx"],
    load: () => import("highlight.js/lib/languages/cpp"),
  },
  csharp: { aliases: ["cs", "c#"], load: () => import("highlight.js/lib/languages/csharp") },
  css: { aliases: [], load: () => import("highlight.js/lib/languages/css") },
  markdown: { aliases: ["md", "mkdown", "mkd"], load: () => import("highlight.js/lib/languages/markdown") },
  diff: { aliases: ["patch"], load: () => import("highlight.js/lib/languages/diff") },
  ruby: {
    aliases: ["rb", "gemspec", "podspec", "thor", "irb"],
    load: () => import("highlight.js/lib/languages/ruby"),
  },
  go: { aliases: ["golang"], load: () => import("highlight.js/lib/languages/go") },
  graphql: { aliases: ["gql"], load: () => import("highlight.js/lib/languages/graphql") },
  ini: { aliases: ["toml"], load: () => import("highlight.js/lib/languages/ini") },
  java: { aliases: ["jsp"], load: () => import("highlight.js/lib/languages/java") },
  javascript: {
    aliases: ["js", "jsx", "mjs", "cjs"],
    load: () => import("highlight.js/lib/languages/javascript"),
  },
  json: { aliases: ["jsonc", "json5"], load: () => import("highlight.js/lib/languages/json") },
  kotlin: { aliases: ["kt", "kts", "ktm", "ktx"], load: () => import("highlight.js/lib/languages/kotlin") },
  less: { aliases: [], load: () => import("highlight.js/lib/languages/less") },
  lua: { aliases: ["pluto"], load: () => import("highlight.js/lib/languages/lua") },
  makefile: { aliases: ["mk", "mak", "make"], load: () => import("highlight.js/lib/languages/makefile") },
  perl: { aliases: ["pl", "pm"], load: () => import("highlight.js/lib/languages/perl") },
  objectivec: {
    aliases: ["mm", "objc", "obj-c", "obj-c++", "objective-c++"],
    load: () => import("highlight.js/lib/languages/objectivec"),
  },
  php: { aliases: [], load: () => import("highlight.js/lib/languages/php") },
  "php-template": { aliases: [], load: () => import("highlight.js/lib/languages/php-template") },
  plaintext: { aliases: ["text", "txt"], load: () => import("highlight.js/lib/languages/plaintext") },
  python: { aliases: ["py", "gyp", "ipython"], load: () => import("highlight.js/lib/languages/python") },
  "python-repl": { aliases: ["pycon"], load: () => import("highlight.js/lib/languages/python-repl") },
  r: { aliases: [], load: () => import("highlight.js/lib/languages/r") },
  rust: { aliases: ["rs"], load: () => import("highlight.js/lib/languages/rust") },
  scss: { aliases: [], load: () => import("highlight.js/lib/languages/scss") },
  shell: { aliases: ["console", "shellsession"], load: () => import("highlight.js/lib/languages/shell") },
  sql: { aliases: [], load: () => import("highlight.js/lib/languages/sql") },
  swift: { aliases: [], load: () => import("highlight.js/lib/languages/swift") },
  yaml: { aliases: ["yml"], load: () => import("highlight.js/lib/languages/yaml") },
  typescript: {
    aliases: ["ts", "tsx", "mts", "cts"],
    load: () => import("highlight.js/lib/languages/typescript"),
  },
  vbnet: { aliases: ["vb"], load: () => import("highlight.js/lib/languages/vbnet") },
  wasm: { aliases: [], load: () => import("highlight.js/lib/languages/wasm") },
};

/** Every name and alias (lower case, as highlight.js compares them) → the language's name. */
const BY_NAME = new Map<string, string>();
for (const [name, { aliases }] of Object.entries(LANGUAGES)) {
  BY_NAME.set(name, name);
  for (const alias of aliases) BY_NAME.set(alias, name);
}

/** The languages and their aliases this highlighter knows (tests compare them with highlight.js's common set). */
export function knownLanguages(): Record<string, string[]> {
  return Object.fromEntries(Object.entries(LANGUAGES).map(([name, { aliases }]) => [name, [...aliases]]));
}

/** The language a code block's info word names, or null when highlight.js's common set has none by that name. */
export function languageNamed(word: string): string | null {
  return BY_NAME.get(word.toLowerCase()) ?? null;
}

let core: HLJSApi | null = null;
let corePromise: Promise<HLJSApi> | null = null;
const registered = new Set<string>();
const pending = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();

function loadCore(): Promise<HLJSApi> {
  corePromise ??= import("highlight.js/lib/core").then((module) => (core = module.default));
  return corePromise;
}

/** The languages a definition embeds (`subLanguage`), which highlight.js's common build had registered too. */
function embeddedLanguages(language: Language): string[] {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (mode: Mode | Language | undefined | null | string) => {
    if (!mode || typeof mode !== "object" || seen.has(mode)) return;
    seen.add(mode);
    const sub = (mode as Mode).subLanguage;
    for (const name of typeof sub === "string" ? [sub] : sub ?? []) {
      const known = languageNamed(name);
      if (known) found.add(known);
    }
    for (const child of [...(mode.contains ?? []), ...((mode as Mode).variants ?? [])]) {
      walk(child as Mode);
    }
    walk((mode as Mode).starts);
  };
  walk(language);
  return [...found];
}

/** Loads highlight.js's core and the named language (with the languages it embeds); false for an unknown one. */
export function loadLanguage(word: string): Promise<boolean> {
  const name = languageNamed(word);
  if (!name) return Promise.resolve(false);
  if (registered.has(name)) return Promise.resolve(true);
  let loading = pending.get(name);
  if (!loading) {
    loading = Promise.all([loadCore(), LANGUAGES[name].load()]).then(async ([hljs, module]) => {
      hljs.registerLanguage(name, module.default);
      registered.add(name);
      const embedded = embeddedLanguages(hljs.getLanguage(name)!).filter((other) => !registered.has(other));
      await Promise.all(embedded.map((other) => loadLanguage(other)));
      for (const listener of listeners) listener();
    });
    pending.set(name, loading);
  }
  return loading.then(() => true);
}

/**
 * The code highlighted, when its language is loaded; null when the language is unknown or not loaded yet (then
 * it starts loading, and listeners hear when it is in).
 */
export function highlightCode(code: string, word: string): string | null {
  const name = languageNamed(word);
  if (!name) return null;
  if (!core || !registered.has(name)) {
    loadLanguage(name).catch(() => {});
    return null;
  }
  try {
    return core.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
}

/** Calls `listener` whenever a language arrives; returns the unsubscribe. */
export function onHighlightChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
