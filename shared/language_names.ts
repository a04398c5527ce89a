import { type LanguageCode, SUPPORTED_LANGUAGES } from "./languages.ts";

// Apart from shared/languages.ts so that only the picker (loaded on demand) carries the names.

/** What each language calls itself, for the picker. */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  it: "Italiano",
  "pt-BR": "Português (Brasil)",
  nl: "Nederlands",
  pl: "Polski",
  ru: "Русский",
  tr: "Türkçe",
  ja: "日本語",
  ko: "한국어",
  zh: "简体中文",
  "zh-TW": "繁體中文",
  vi: "Tiếng Việt",
  fa: "فارسی",
  he: "עברית",
  ar: "العربية",
};

/** Every language with its name, English first. */
export const LANGUAGES: readonly { code: LanguageCode; name: string }[] = SUPPORTED_LANGUAGES.map((code) => ({
  code,
  name: LANGUAGE_NAMES[code],
}));
