import i18next, { type InitOptions } from "i18next";
import LanguageDetector, { type DetectorOptions } from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import en from "../locales/en.json" with { type: "json" };
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGE_QUERY,
  matchLanguage,
  SUPPORTED_LANGUAGES,
} from "../../shared/languages.ts";

export { SUPPORTED_LANGUAGES };

/** Where the visitor's language is looked for, in this order. */
export const DETECTION_ORDER = [
  "querystring",
  "cookie",
  "localStorage",
  "sessionStorage",
  "navigator",
  "htmlTag",
] as const;

/** The detector's settings: the spec's order, our cookie and query names, nothing cached by the detector. */
export const DETECTION: DetectorOptions = {
  order: [...DETECTION_ORDER],
  lookupQuerystring: LANGUAGE_QUERY,
  lookupCookie: LANGUAGE_COOKIE,
  // The stored items are those of docs/api-compat.md#client-behaviour; the picker writes the cookie itself.
  caches: [],
};

/** A place to look for the language, as i18next's detector has them (tests stand in for the browser's). */
export interface LanguageLookup {
  name: (typeof DETECTION_ORDER)[number];
  lookup: (options: DetectorOptions) => string | string[] | undefined;
}

/**
 * The i18next options. English is bundled; every other language is loaded on demand (loadLanguage) before
 * it is used, so i18next never fetches anything itself. The server renders each page in the language it
 * chose (server/pages/language.ts) with an instance of its own; the browser's instance starts in English.
 */
export function i18nOptions(): InitOptions {
  return {
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    // pt-BR and zh-TW are languages of their own, not pt and zh.
    load: "currentOnly",
    resources: { en: { translation: en } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  };
}

/** A page in a browser, as opposed to the server rendering it (Deno has no `document`). */
export const IN_BROWSER = typeof document !== "undefined" && typeof navigator !== "undefined";

export const i18n = i18next.createInstance();
i18n.use(initReactI18next).init(i18nOptions());

export const t = i18n.t.bind(i18n);

/**
 * The language the browser asks for, in DETECTION_ORDER, among the available ones (English when none):
 * i18next's detector, run once; every place it looks is tried in turn until one names an available language.
 */
export function detectLanguage(available: readonly string[], lookups: LanguageLookup[] = []): string {
  const probe = i18next.createInstance();
  probe.init({ ...i18nOptions(), lng: undefined, resources: {} });
  const detector = new LanguageDetector(probe.services, DETECTION);
  for (const lookup of lookups) detector.addDetector(lookup);
  const found = detector.detect();
  const tags = Array.isArray(found) ? found : found ? [found] : [];
  for (const tag of tags) {
    const code = matchLanguage(tag, available);
    if (code) return code;
  }
  return DEFAULT_LANGUAGE;
}
