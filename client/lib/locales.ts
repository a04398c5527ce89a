/// <reference types="vite/client" />
import type { ResourceLanguage } from "i18next";
import { type LocaleLoader, rememberLanguage, switchLanguage } from "./language_switch.ts";
import { DEFAULT_LANGUAGE } from "../../shared/languages.ts";
import { LANGUAGES } from "../../shared/language_names.ts";

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

/** Switches the interface to an available language (loading its texts first); false when it cannot. */
export function speak(code: string): Promise<boolean> {
  if (code !== DEFAULT_LANGUAGE && !(code in LOCALE_LOADERS)) return Promise.resolve(false);
  return switchLanguage(code, LOCALE_LOADERS[code]);
}

/** The visitor's choice: used now, and remembered in the cookie so that the server renders it next time. */
export async function choose(code: string): Promise<boolean> {
  const switched = await speak(code);
  if (switched) rememberLanguage(code);
  return switched;
}
