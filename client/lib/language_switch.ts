import type { ResourceLanguage } from "i18next";
import {
  DEFAULT_LANGUAGE,
  isSupportedLanguage,
  LANGUAGE_COOKIE,
  languageDirection,
} from "../../shared/languages.ts";
import { i18n } from "./i18n.ts";

// Changing the interface's language: loaded on demand with the locale files (locales.ts), never in an English
// page's first load.

/** Loads one language's texts: `client/locales/<code>.json` as a module of its own (client/lib/locales.ts). */
export type LocaleLoader = () => Promise<ResourceLanguage>;

/** Sets `<html lang dir>` for a language (the server sets them for the first render). */
export function applyDocumentLanguage(
  code: string,
  root: HTMLElement | null = globalThis.document?.documentElement,
) {
  if (!root) return;
  root.lang = code;
  root.dir = languageDirection(code);
}

/**
 * Switches the interface to `code`, loading its texts first when they are not there yet (`load` is the
 * language's loader; English needs none). Resolves to false when the language cannot be loaded: the
 * interface stays as it was.
 */
export async function switchLanguage(code: string, load: LocaleLoader | undefined): Promise<boolean> {
  if (code !== DEFAULT_LANGUAGE && !i18n.hasResourceBundle(code, "translation")) {
    if (!load) return false;
    try {
      i18n.addResourceBundle(code, "translation", await load(), true, true);
    } catch (error) {
      console.error(`Could not load the language ${code}:`, error);
      return false;
    }
  }
  await i18n.changeLanguage(code);
  applyDocumentLanguage(code);
  return true;
}

/** Remembers the visitor's choice for the server's next page (a year, the whole site). */
export function rememberLanguage(code: string, doc: { cookie: string } | undefined = globalThis.document) {
  if (!doc) return;
  doc.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * At login: a language the account chose (the account modal saves it) follows the person to this browser, for
 * the page the login goes to. English, the stored default, is not told from "never chosen", so it leaves this
 * browser's own choice or detection as it is. Returns the language adopted, if any.
 */
export function adoptAccountLanguage(
  user: { preferredLanguage?: unknown } | null | undefined,
  doc: { cookie: string } | undefined = globalThis.document,
): string | null {
  const code = user?.preferredLanguage;
  if (!isSupportedLanguage(code) || code === DEFAULT_LANGUAGE) return null;
  rememberLanguage(code, doc);
  return code;
}
