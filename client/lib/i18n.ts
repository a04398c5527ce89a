import i18next, { type InitOptions } from "i18next";
import LanguageDetector, { type DetectorOptions } from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import en from "../locales/en.json" with { type: "json" };

/** Where the visitor's language is looked for, in this order. */
export const DETECTION_ORDER = [
  "querystring",
  "cookie",
  "localStorage",
  "sessionStorage",
  "navigator",
  "htmlTag",
] as const;

/** English is the only language; every UI string lives in locales/en.json. */
export const SUPPORTED_LANGUAGES = ["en"] as const;

/**
 * The i18next options. In the browser the language is detected, which can only ever settle on a
 * supported language, English; the server renders English outright, so hydration always matches.
 */
export function i18nOptions(inBrowser: boolean): InitOptions & { detection?: DetectorOptions } {
  const common: InitOptions = {
    fallbackLng: "en",
    supportedLngs: [...SUPPORTED_LANGUAGES],
    load: "languageOnly",
    resources: { en: { translation: en } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  };
  if (!inBrowser) return { ...common, lng: "en" };
  // Nothing is cached: the stored items are those of docs/api-compat.md#client-behaviour, and the language is
  // not one of them.
  return { ...common, detection: { order: [...DETECTION_ORDER], caches: [] } };
}

/** A page in a browser, as opposed to the server rendering it (Deno has no `document`). */
export const IN_BROWSER = typeof document !== "undefined" && typeof navigator !== "undefined";

export const i18n = i18next.createInstance();
if (IN_BROWSER) i18n.use(LanguageDetector);
i18n.use(initReactI18next).init(i18nOptions(IN_BROWSER));

export const t = i18n.t.bind(i18n);
