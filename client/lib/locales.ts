import type { ResourceLanguage } from "i18next";
import type { LocaleLoader } from "./i18n.ts";
import { DEFAULT_LANGUAGE, LANGUAGES } from "../../shared/languages.ts";

// Browser only (Vite's import.meta.glob): every locale file present at build time becomes a module of its own,
// fetched when that language is used; English is in the first load (lib/i18n.ts). This module is itself
// loaded on demand, so an English page carries none of it.
const FILES = import.meta.glob<ResourceLanguage>(["../locales/*.json", "!../locales/en.json"], {
  import: "default",
});

/** The loaders of the languages whose file is present, by code. */
export const LOCALE_LOADERS: Record<string, LocaleLoader> = Object.fromEntries(
  Object.entries(FILES).map(([path, load]): [string, LocaleLoader] => [
    path.slice("../locales/".length, -".json".length),
    load,
  ]),
);

/** The languages the picker offers: English and those whose file is present, in LANGUAGES order. */
export const AVAILABLE_LANGUAGES = LANGUAGES.filter((language) =>
  language.code === DEFAULT_LANGUAGE || language.code in LOCALE_LOADERS
);
