import type { ReactElement } from "react";
import { reactRenderer } from "@hono/react-renderer";
import type { ClientAssets } from "./assets.ts";
import type { Guard } from "../../shared/routes.ts";

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

/** The HTML document around every page: styles, module preloads, the one client entry. */
export function documentRenderer(assets: ClientAssets, appName: () => string) {
  return reactRenderer(({ children, title, islands, guard }) => {
    const files = assets.forPage(islands ?? []);
    const name = appName();
    return (
      <html lang="en" data-guard={guard ?? "public"}>
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <title>{title ? `${title} | ${name}` : name}</title>
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          {files.styles.map((href) => <link key={href} rel="stylesheet" href={href} />)}
          {files.preloads.map((href) => <link key={href} rel="modulepreload" href={href} />)}
        </head>
        <body>
          {children as ReactElement}
          <script type="module" src={files.script}></script>
        </body>
      </html>
    );
  }, { docType: true });
}
