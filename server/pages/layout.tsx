import type { ReactElement } from "react";
import { reactRenderer } from "@hono/react-renderer";
import type { ClientAssets } from "./assets.ts";

declare module "@hono/react-renderer" {
  interface Props {
    title: string;
    islands: string[];
  }
}

/** The HTML document around every page: styles, module preloads, the one client entry. */
export function documentRenderer(assets: ClientAssets, appName: () => string) {
  return reactRenderer(({ children, title, islands }) => {
    const files = assets.forPage(islands ?? []);
    const name = appName();
    return (
      <html lang="en">
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
