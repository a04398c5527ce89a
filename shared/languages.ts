// The interface's languages (issue 24): the reference's list. A
// language is offered only when its file client/locales/<code>.json is present (the client's build and the
// server both look). No imports here: the client's first load, the server and the account check share it.

/** Every language the interface can speak, English first (their names: language_names.ts). */
export const SUPPORTED_LANGUAGES = [
  "en",
  "de",
  "es",
  "fr",
  "it",
  "pt-BR",
  "nl",
  "pl",
  "ru",
  "tr",
  "ja",
  "ko",
  "zh",
  "zh-TW",
  "vi",
  "fa",
  "he",
  "ar",
] as const;

export type LanguageCode = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: LanguageCode = "en";

/** The languages written right to left. */
export const RTL_LANGUAGES: readonly LanguageCode[] = ["ar", "fa", "he"];

/** The cookie the picker sets and the server reads (i18next's detector reads the same cookie). */
export const LANGUAGE_COOKIE = "i18next";
/** The query parameter that picks a language for one page (`?lng=de`), first in the detection order. */
export const LANGUAGE_QUERY = "lng";

export function isSupportedLanguage(code: unknown): code is LanguageCode {
  return typeof code === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(code);
}

export function languageDirection(code: string): "rtl" | "ltr" {
  return (RTL_LANGUAGES as readonly string[]).includes(code) ? "rtl" : "ltr";
}

/**
 * The available language that best answers one asked-for tag (`de-AT` → de, `zh-Hant-HK` → zh-TW, `pt` →
 * pt-BR), or null. Case does not matter; `_` reads as `-` (the reference writes pt_BR).
 */
export function matchLanguage(tag: string, available: readonly string[]): string | null {
  const wanted = tag.trim().replace(/_/g, "-").toLowerCase();
  if (!wanted || wanted === "*") return null;
  const exact = available.find((code) => code.toLowerCase() === wanted);
  if (exact) return exact;
  const [primary, ...rest] = wanted.split("-");
  if (primary === "zh") {
    const traditional = rest.some((part) => ["hant", "tw", "hk", "mo"].includes(part));
    const code = traditional ? "zh-TW" : "zh";
    return available.includes(code) ? code : available.find((c) => c.toLowerCase().startsWith("zh")) ?? null;
  }
  return available.find((code) => code.toLowerCase() === primary) ??
    available.find((code) => code.toLowerCase().split("-")[0] === primary) ?? null;
}

/** The tags of an `Accept-Language` header, most wanted first (q=0 left out). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header.split(",").map((part, index) => {
    const [tag, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
  }).filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The first of `tags` (in order) that an available language answers, else English. */
export function pickLanguage(
  tags: readonly (string | null | undefined)[],
  available: readonly string[],
): string {
  for (const tag of tags) {
    if (!tag) continue;
    const found = matchLanguage(tag, available);
    if (found) return found;
  }
  return DEFAULT_LANGUAGE;
}
