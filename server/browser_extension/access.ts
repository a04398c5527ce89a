// Which of the browser extension's calls pass the origin guard and which origins may read them (CORS): read by
// the app's middleware on every request, so kept apart from the extension's routes, which load on first use.
import type { OriginDecider } from "../http/cors.ts";

/** The extension's own calls: authenticated by its key (a Bearer `brx-…`), not by a session. */
const EXTENSION_CALL =
  /^\/api\/browser-extension\/(check|workspaces|embed-content|upload-content|disconnect)$/;

/** Origins of browser extensions (Chromium, Firefox, Safari). */
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[^/]+$/;

/**
 * For the origin guard: the extension's calls from an extension's own origin (`chrome-extension://…`) carry its
 * key, not a session, so they pass; from a web page they are refused like any other cross-site request.
 */
export function isExtensionCall(_method: string, path: string, origin?: string): boolean {
  return EXTENSION_CALL.test(path) && origin !== undefined && EXTENSION_ORIGIN.test(origin);
}

/**
 * CORS for the extension's calls: an extension's origin may read their answers (they need its key anyway).
 * Other origins are left to CORS_ORIGINS; `next` decides the other paths.
 */
export function extensionCorsDecider(next: OriginDecider): OriginDecider {
  return (request) => {
    if (EXTENSION_CALL.test(request.path)) {
      return Promise.resolve(EXTENSION_ORIGIN.test(request.origin) ? true : undefined);
    }
    return next(request);
  };
}
