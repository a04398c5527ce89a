import type { ReactElement } from "react";
import { reactRenderer } from "@hono/react-renderer";
import { I18nextProvider } from "react-i18next";
import type { ClientAssets } from "./assets.ts";
import type { Guard } from "../../shared/routes.ts";
import { languageDirection } from "../../shared/languages.ts";
import { LOCALE_FILES, type Locales, requestLanguage } from "./language.ts";

declare module "@hono/react-renderer" {
  interface Props {
    title: string;
    islands: string[];
    /**
     * Who may open the page (docs/api-compat.md#page-routes-and-page-guards); the client checks it before
     * hydrating the islands.
     */
    guard: Guard;
  }
}

/**
 * The HTML document around every page: styles, module preloads, the one client entry. The page speaks the
 * request's language (language.ts): `<html lang dir>`, the texts of the islands, and a preload of that
 * language's texts for the client, which loads them before hydrating.
 */
export function documentRenderer(
  assets: ClientAssets,
  appName: () => string,
  locales: Locales = LOCALE_FILES,
) {
  return reactRenderer(({ children, title, islands, guard, c }) => {
    const files = assets.forPage(islands ?? []);
    const name = appName();
    const language = requestLanguage(c, locales);
    const texts = language === "en" ? null : assets.localeScript?.(language) ?? null;
    return (
      <html lang={language} dir={languageDirection(language)} data-guard={guard ?? "public"}>
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <title>{title ? `${title} | ${name}` : name}</title>
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          {files.styles.map((href) => <link key={href} rel="stylesheet" href={href} />)}
          {files.preloads.map((href) => <link key={href} rel="modulepreload" href={href} />)}
          {texts && <link rel="modulepreload" href={texts} />}
        </head>
        <body>
          <I18nextProvider i18n={locales.i18n(language)}>{children as ReactElement}</I18nextProvider>
          <script type="module" src={files.script}></script>
        </body>
      </html>
    );
  }, { docType: true });
}
