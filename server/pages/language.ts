import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import i18next, { type i18n as I18n, type ResourceLanguage } from "i18next";
import { i18nOptions } from "../../client/lib/i18n.ts";
import {
  acceptedLanguages,
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGE_QUERY,
  pickLanguage,
  SUPPORTED_LANGUAGES,
} from "../../shared/languages.ts";
import { fromRoot } from "../app_root.ts";

// The language a page is rendered in. The server sees three of the spec's detection places: the query
// string (`?lng=`), the cookie the picker sets, and the browser's languages (Accept-Language, what the
// navigator reports); the client loads the same language's texts before hydrating (client/main.tsx).

const LOCALES = fromRoot("client/locales/");

/** The texts of the languages whose file is present (English included), and an i18next instance per language. */
export interface Locales {
  /** The languages whose locale file is present, in SUPPORTED_LANGUAGES order. */
  available(): string[];
  /** An i18next instance fixed to one language (English behind it), made once and shared by every request. */
  i18n(code: string): I18n;
}

/** The locale files of a folder (client/locales by default), read on first use. */
export function localesIn(directory: URL = LOCALES): Locales {
  let texts: Map<string, ResourceLanguage> | null = null;
  const read = () => {
    if (texts) return texts;
    texts = new Map();
    for (const code of SUPPORTED_LANGUAGES) {
      try {
        texts.set(code, JSON.parse(Deno.readTextFileSync(new URL(`${code}.json`, directory))));
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    return texts;
  };
  const instances = new Map<string, I18n>();
  return {
    available: () => [...read().keys()],
    i18n(code) {
      const existing = instances.get(code);
      if (existing) return existing;
      const own = read().get(code);
      const resources: Record<string, { translation: ResourceLanguage }> = {
        en: { translation: read().get(DEFAULT_LANGUAGE) ?? {} },
      };
      if (own) resources[code] = { translation: own };
      const instance = i18next.createInstance();
      instance.init({ ...i18nOptions(), lng: own ? code : DEFAULT_LANGUAGE, resources });
      instances.set(code, instance);
      return instance;
    },
  };
}

/** The interface's own locale files. */
export const LOCALE_FILES: Locales = localesIn();

/** The page's language: `?lng=`, then the cookie, then Accept-Language; English when none is available. */
export function requestLanguage(c: Context, locales: Locales = LOCALE_FILES): string {
  return pickLanguage(
    [
      c.req.query(LANGUAGE_QUERY),
      getCookie(c, LANGUAGE_COOKIE),
      ...acceptedLanguages(c.req.header("accept-language")),
    ],
    locales.available(),
  );
}
