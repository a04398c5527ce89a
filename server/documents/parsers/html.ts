import { charsetFrom } from "../text.ts";
import { readText } from "./plain.ts";
import type { ParsedDocument, ParseInput } from "./types.ts";

export interface Markdown {
  markdown: string;
  title: string;
  byline: string | null;
  excerpt: string | null;
}

// Loaded on first use: linkedom, Readability and Turndown are only needed for HTML, EPUB and mail bodies.
async function libraries() {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([
    import("linkedom"),
    import("@mozilla/readability"),
    import("turndown"),
  ]);
  return { parseHTML, Readability, TurndownService };
}

type Libraries = Awaited<ReturnType<typeof libraries>>;

/** The two tests of Readability's (@mozilla/readability 0.6, its internals) that `leanReadability` replaces. */
interface ReadabilityInternals {
  REGEXPS: { byline: RegExp };
  _isValidByline(node: Element, matchString: string): boolean;
  _isProbablyVisible(node: Element): boolean;
}

/**
 * Readability with two of its tests per element made cheaper, their answers the same (html_test.ts compares
 * them with the originals element by element). The byline test read each element's whole text (`textContent`,
 * a walk of all its descendants) before its attributes and names, which rule out nearly every element: a walk of
 * the tree per element. The visibility test read each element's `style`, which linkedom answers with a new
 * style object (a Map behind a Proxy, registered in a WeakMap) even for an element without a style attribute,
 * where it can say neither "display: none" nor "visibility: hidden". Over the corpus's 245 pages the two (with
 * turndownInPlace) took about a quarter off the HTML parse's processor time (issue 21).
 */
export function leanReadability<T>(reader: T): T {
  const internals = reader as unknown as ReadabilityInternals;
  internals._isValidByline = function (node, matchString) {
    const rel = node.getAttribute("rel");
    const itemprop = node.getAttribute("itemprop");
    if (
      !(rel === "author" || (itemprop && itemprop.includes("author")) ||
        this.REGEXPS.byline.test(matchString))
    ) {
      return false;
    }
    const length = (node.textContent ?? "").trim().length;
    return length > 0 && length < 100;
  };
  const probablyVisible = internals._isProbablyVisible;
  internals._isProbablyVisible = function (node) {
    if (node.hasAttribute("style")) return probablyVisible.call(this, node);
    return !node.hasAttribute("hidden") &&
      (!node.hasAttribute("aria-hidden") || node.getAttribute("aria-hidden") != "true" ||
        (node.className?.includes?.("fallback-image") ?? false));
  };
  return reader;
}

/**
 * Converts `element` with Turndown without the copy Turndown makes first (it clones what it is given, then
 * collapses the copy's whitespace): for an element nobody reads afterwards, such as Readability's article, the
 * copy is a second tree of nodes made and collected for nothing. The element's whitespace is collapsed in place.
 */
export function turndownInPlace(
  service: InstanceType<Libraries["TurndownService"]>,
  element: Element,
): string {
  Object.defineProperty(element, "cloneNode", { value: () => element, configurable: true });
  return service.turndown(element as unknown as HTMLElement);
}

function turndown(TurndownService: Libraries["TurndownService"]) {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
  });
  service.remove(["script", "style", "noscript", "template", "iframe", "object", "canvas"]);
  service.remove((node) => node.nodeName.toLowerCase() === "svg");
  // Turndown fences only `<pre><code>`; manuals often put configuration straight in a `<pre>`.
  service.addRule("bare-pre", {
    filter: (node) => node.nodeName === "PRE" && node.firstElementChild?.nodeName !== "CODE",
    replacement: (_content, node) =>
      `\n\n\`\`\`\n${(node.textContent ?? "").replace(/\n+$/, "")}\n\`\`\`\n\n`,
  });
  // Inline code that holds line breaks or paragraphs is a listing (the Apache manual's examples are
  // `<p><code>line<br>line</code></p>`): it is fenced with its lines, not flattened into one line.
  service.addRule("multiline-code", {
    filter: (node) =>
      node.nodeName === "CODE" && node.parentNode?.nodeName !== "PRE" &&
      node.querySelector("br, p, div") !== null,
    replacement: (_content, node) => {
      const lines = codeLines(node).split("\n").map((line) => line.trim()).join("\n")
        .replace(/\n{3,}/g, "\n\n").trim();
      return lines ? `\n\n\`\`\`\n${lines}\n\`\`\`\n\n` : "";
    },
  });
  // Link targets and images are noise to a reader of chunks and to the embedder; their text is kept.
  service.addRule("link-text", { filter: "a", replacement: (content) => content });
  service.addRule("image-alt", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (node as Element).getAttribute?.("alt")?.trim();
      return alt ? alt : "";
    },
  });
  return service;
}

const BLOCKS = new Set(["P", "DIV", "LI", "TR", "BLOCKQUOTE", "PRE"]);

/** The text of a listing: a `<br>` ends a line, a block is a line or more of its own. */
function codeLines(node: Node): string {
  let text = "";
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) text += (child as Text).data;
    else if (child.nodeName === "BR") text += "\n";
    else if (BLOCKS.has(child.nodeName)) text += `\n\n${codeLines(child)}\n\n`;
    else if (child.nodeType === 1) text += codeLines(child);
  }
  return text;
}

/** The title as a heading on top, unless the text already starts with it. */
function withTitle(markdown: string, title: string): string {
  if (!title || markdown.slice(0, title.length + 50).includes(title)) return markdown;
  return `# ${title}\n\n${markdown}`;
}

const NAVIGATION = "nav, [role=navigation], [aria-hidden=true]";

function tidy(markdown: string): string {
  return markdown
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function htmlDocument(parseHTML: Libraries["parseHTML"], html: string) {
  // linkedom needs a whole document; a fragment gets one.
  const whole = /<html[\s>]/i.test(html)
    ? html
    : `<!doctype html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(whole);
  // The parser gives a text with character references as several text nodes; one each reads (and is
  // escaped) as the text it is.
  document.documentElement?.normalize();
  return document;
}

const UNREAD = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);

/**
 * The text of `node` as `textContent` gives it once its scripts, styles, noscripts and templates are removed,
 * read without removing them (the document is left as it is).
 */
function textWithout(node: Node | null | undefined): string {
  if (!node) return "";
  const parts: string[] = [];
  const walk = (parent: Node) => {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) parts.push((child as Text).data);
      else if (child.nodeType === 1 && !UNREAD.has((child as Element).tagName.toUpperCase())) walk(child);
    }
  };
  walk(node);
  return parts.join("");
}

/**
 * HTML as Markdown. With `readable` (a web page), the main article (Mozilla Readability) when it holds most of
 * the page's text, under the page's title; otherwise, or when Readability finds nothing, the whole body without
 * scripts, styles and navigation. The page is parsed once; only when Readability's article is not kept (it
 * changes the document it reads) is it parsed again for the whole body.
 */
export async function htmlToMarkdown(html: string, options: { readable: boolean }): Promise<Markdown> {
  const libs = await libraries();
  const service = turndown(libs.TurndownService);
  const parsed = htmlDocument(libs.parseHTML, html);
  const pageTitle = (parsed.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  const bodyText = textWithout(parsed.body).replace(/\s+/g, " ").trim();

  let page = parsed;
  if (options.readable && bodyText.length > 0) {
    const source = parsed;
    try {
      for (const element of source.querySelectorAll(NAVIGATION)) element.remove();
      // The article comes back as its element, not as HTML: Turndown reads it where it is rather than parsing
      // a serialized copy with a second DOM library.
      const article = leanReadability(
        new libs.Readability<Element>(source as unknown as Document, {
          charThreshold: 100,
          // Removing classes is work for nothing here: Turndown drops them.
          keepClasses: true,
          serializer: (element) => element as Element,
        }),
      ).parse();
      const articleText = (article?.textContent ?? "").replace(/\s+/g, " ").trim();
      // An index or a form page can leave Readability with a fragment; then the whole page reads better.
      if (article?.content && articleText.length >= Math.min(500, bodyText.length * 0.5)) {
        const title = (article.title ?? "").trim() || pageTitle;
        return {
          markdown: withTitle(tidy(turndownInPlace(service, article.content)), title),
          title,
          byline: article.byline?.trim() || null,
          excerpt: article.excerpt?.trim() || null,
        };
      }
    } catch {
      // Readability gives up on some pages; the body below is the fallback.
    }
    page = htmlDocument(libs.parseHTML, html);
  }
  for (const element of page.querySelectorAll("script, style, noscript, template")) element.remove();
  for (const element of page.querySelectorAll(NAVIGATION)) element.remove();
  let markdown: string;
  try {
    markdown = page.body ? tidy(service.turndown(page.body as unknown as HTMLElement)) : "";
  } catch {
    markdown = tidy(page.body?.textContent ?? "");
  }
  return {
    markdown: markdown && options.readable ? withTitle(markdown, pageTitle) : markdown,
    title: pageTitle,
    byline: null,
    excerpt: null,
  };
}

/** The charset a page declares in `<meta charset>` or `<meta http-equiv>`, read from its first bytes. */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return meta ? charsetFrom(`charset=${meta[1]}`) : undefined;
}

export async function parseHtml(input: ParseInput): Promise<ParsedDocument> {
  const contentType = charsetFrom(input.contentType) ? input.contentType : (() => {
    const declared = declaredCharset(input.bytes);
    return declared ? `text/html; charset=${declared}` : input.contentType;
  })();
  const html = readText({ ...input, contentType });
  const { markdown, title, byline, excerpt } = await htmlToMarkdown(html, { readable: true });
  return {
    text: markdown,
    docAuthor: byline ?? "Unknown",
    description: excerpt ?? "Unknown",
    docSource: "an html file uploaded by the user.",
    innerTitle: title || undefined,
  };
}
