// What a translation of locales/en.json must be (issue 24; the rules of /work/scratch/check_locale.ts as code):
// every key of en.json, each plural base with every form the language's Intl.PluralRules asks for (and
// English's own forms), no other keys, no empty text, and the same {{placeholders}}, <n></n> tags and $t()
// references as English. Plural forms are free in their placeholders (Arabic's "zero" needs no count).

type Tree = { [key: string]: string | Tree };

/** A locale file as `dotted.key → text`. */
export function flatten(tree: Tree, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object") flatten(value, path, out);
    else out[path] = String(value);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The marks a translation must keep: placeholders, numbered tags, nested references; sorted. */
export function marks(text: string): string {
  return [...text.matchAll(/\{\{\s*[^}]+\}\}|<\/?\d+\s*\/?>|\$t\([^)]*\)/g)]
    .map((match) => match[0].replace(/\s+/g, ""))
    .sort()
    .join(" ");
}

/** The keys a language's file must have, each with the English text it translates. */
export function expectedKeys(en: Record<string, string>, tag: string): Map<string, string> {
  const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories as string[];
  const expected = new Map<string, string>();
  for (const [key, text] of Object.entries(en)) {
    const plural = key.match(PLURAL);
    if (plural) {
      const base = key.slice(0, -plural[0].length);
      for (const category of categories) {
        if (!expected.has(`${base}_${category}`)) {
          expected.set(`${base}_${category}`, en[`${base}_other`] ?? text);
        }
      }
    }
    expected.set(key, text);
  }
  return expected;
}

/** Everything wrong with one translation, as readable lines; empty when it is complete. */
export function localeProblems(enTree: Tree, localeTree: Tree, tag: string): string[] {
  const en = flatten(enTree);
  const locale = flatten(localeTree);
  const expected = expectedKeys(en, tag);
  const problems: string[] = [];
  for (const [key, source] of expected) {
    if (!(key in locale)) problems.push(`missing ${key}`);
    else if (locale[key].trim() === "") problems.push(`empty ${key}`);
    else if (!PLURAL.test(key) && marks(locale[key]) !== marks(source)) {
      problems.push(`marks differ ${key}: [${marks(source)}] vs [${marks(locale[key])}]`);
    }
  }
  for (const key of Object.keys(locale)) if (!expected.has(key)) problems.push(`extra ${key}`);
  return problems;
}
