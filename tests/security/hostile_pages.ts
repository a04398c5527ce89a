import assert from "node:assert/strict";
import type { Page } from "playwright-core";

/**
 * What every stored-XSS payload of the browser suite sets when it runs: an inline handler, an inline script, a
 * javascript: or data: link. The pages are opened with the CSP bypassed, so a payload that reached the DOM as
 * markup would run and be seen here, not quietly blocked by script-src 'self'.
 */
export const XSS_FLAG = "__xss";

export const PAYLOADS = {
  img: `<img src=x onerror="window.__xss=1">`,
  script: `<script>window.__xss=1</script>`,
  svg: `"><svg onload=window.__xss=1>`,
  closeScript: `</script><script>window.__xss=1</script>`,
  markdownLink: "[x](javascript:window.__xss=1)",
  anchor: `<a href="javascript:window.__xss=1">click</a>`,
  dataLink: "[d](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)",
} as const;

/** Records the browser's own alert, confirm and prompt boxes, which a payload such as alert(1) would open. */
export function browserDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", async (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return seen;
}

/**
 * Markup on the page that no screen of the app renders itself and that a payload would bring: inline event
 * handlers, inline scripts, frames and objects, script-carrying link targets, the payloads' `<img src=x>` and
 * `<svg>`. Empty when every payload was rendered as text.
 */
export function injectedMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll("*"))) {
      const tag = element.tagName.toLowerCase();
      for (const attribute of Array.from(element.attributes)) {
        if (/^on/i.test(attribute.name)) found.push(`<${tag} ${attribute.name}>`);
      }
      if (tag === "script" && !element.getAttribute("src")) found.push("<script> inline");
      if (["iframe", "object", "embed", "frame", "base"].includes(tag)) found.push(`<${tag}>`);
      if (tag === "img" && element.getAttribute("src") === "x") found.push("<img src=x>");
      const href = element.getAttribute("href") ?? element.getAttribute("xlink:href") ??
        element.getAttribute("action") ?? element.getAttribute("formaction");
      if (href !== null && /^\s*(javascript|data|vbscript):/i.test(href)) found.push(`<${tag} ${href}>`);
    }
    // The app draws its icons with <svg> of its own; a payload's <svg> arrives with an onload (caught above)
    // or, with the handler stripped, without the app's aria-hidden.
    for (const svg of Array.from(document.querySelectorAll("svg:not([aria-hidden]):not([role])"))) {
      found.push(`<svg> ${svg.outerHTML.slice(0, 60)}`);
    }
    return found;
  });
}

/**
 * Asserts that a page shows each of `texts` as text and that no payload ran or reached the DOM as markup:
 * the flag is unset, no browser dialog opened, and no foreign markup is in the document.
 */
export async function assertInert(page: Page, dialogs: string[], texts: string[], where: string) {
  for (const text of texts) {
    await page.waitForFunction(
      (wanted) => document.body.textContent?.includes(wanted) === true,
      text,
      { timeout: 10_000 },
    ).catch(async () => {
      const shown = await page.evaluate(() => document.body.innerText);
      throw new Error(
        `${where}: the page does not show ${JSON.stringify(text)} as text; it shows:\n${shown}`,
      );
    });
  }
  assert.equal(
    await page.evaluate((flag) => (globalThis as Record<string, unknown>)[flag], XSS_FLAG),
    undefined,
    `${where}: a payload ran`,
  );
  assert.deepEqual(dialogs, [], `${where}: no dialog opened`);
  assert.deepEqual(await injectedMarkup(page), [], `${where}: no payload reached the DOM as markup`);
}

/** A web site on a second loopback address (another origin, and another site, than 127.0.0.1). */
export interface LoopbackSite {
  origin: string;
  /** Requests the site received, as method and path. */
  hits: string[];
  /** Serves `html` at `path`. */
  page(path: string, html: string): string;
  [Symbol.asyncDispose](): Promise<void>;
}

export function startLoopbackSite(hostname = "127.0.0.2"): LoopbackSite {
  const pages = new Map<string, string>();
  const hits: string[] = [];
  const server = Deno.serve({ hostname, port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    hits.push(`${request.method} ${url.pathname}`);
    const html = pages.get(url.pathname);
    if (html === undefined) return new Response("evil site", { headers: { "Content-Type": "text/plain" } });
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
  const origin = `http://${hostname}:${server.addr.port}`;
  return {
    origin,
    hits,
    page(path, html) {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/**
 * How a page of another site can make a browser send a state-changing request without reading the answer:
 * a form with enctype text/plain whose one field spells a JSON body, a no-cors fetch, a beacon, and the same form
 * from a sandboxed frame (Origin: null). A JSON body reaches a server that reads bodies as JSON whatever their
 * declared type.
 */
export type CrossSiteVector = "form" | "fetch" | "beacon" | "sandboxed-form";

/**
 * The text/plain form field that serialises as the JSON of `body` (`name=value\r\n`): split at a "=" the body
 * holds, else padded with one more key, `"_":"="`.
 */
function plainTextField(body: Record<string, unknown>): { name: string; value: string } {
  const json = JSON.stringify(body);
  assert.ok(!json.includes("'"), "the body is written in single-quoted attributes");
  const split = json.indexOf("=");
  if (split >= 0) return { name: json.slice(0, split), value: json.slice(split + 1) };
  const padded = JSON.stringify({ ...body, _: "" });
  return { name: padded.slice(0, -2), value: '"}' };
}

function formMarkup(target: string, body: Record<string, unknown>): string {
  const field = plainTextField(body);
  return `<form method="POST" enctype="text/plain" action="${target}">` +
    `<input type="hidden" name='${field.name}' value='${field.value}'></form>` +
    `<script>document.forms[0].submit()</script>`;
}

/** A whole page that sends `body` to `target` by `vector` as soon as it opens. */
export function attackPage(vector: CrossSiteVector, target: string, body: Record<string, unknown>): string {
  const json = JSON.stringify(body);
  const head = '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>attack</title>';
  switch (vector) {
    case "form":
      return `${head}${formMarkup(target, body)}`;
    case "fetch":
      return `${head}<script>fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", ` +
        `credentials: "include", headers: { "Content-Type": "text/plain" }, body: ${
          JSON.stringify(json)
        } })` +
        `.then(() => { document.title = "sent"; }, () => { document.title = "failed"; })</script>`;
    case "beacon":
      return `${head}<script>document.title = navigator.sendBeacon(${JSON.stringify(target)}, ` +
        `new Blob([${JSON.stringify(json)}], { type: "text/plain" })) ? "sent" : "failed"</script>`;
    case "sandboxed-form":
      return `${head}<script>const frame = document.createElement("iframe");` +
        `frame.setAttribute("sandbox", "allow-forms allow-scripts");` +
        `frame.srcdoc = ${JSON.stringify(formMarkup(target, body)).replaceAll("</", "<\\/")};` +
        `document.documentElement.append(frame)</script>`;
  }
}
