import { XMLParser, XMLValidator } from "fast-xml-parser";
import { fail } from "../errors.ts";

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

/**
 * The SVG elements a logo may keep: shapes, text, paint servers, clipping, masks and filters. Everything else
 * (script, foreignObject, animation, iframes, links, any element of another namespace) is dropped with its
 * content.
 */
const ELEMENTS = new Set([
  "svg",
  "g",
  "defs",
  "title",
  "desc",
  "symbol",
  "use",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "pattern",
  "clipPath",
  "mask",
  "marker",
  "filter",
  "style",
  "image",
  "feBlend",
  "feColorMatrix",
  "feComponentTransfer",
  "feComposite",
  "feConvolveMatrix",
  "feDiffuseLighting",
  "feDisplacementMap",
  "feDistantLight",
  "feDropShadow",
  "feFlood",
  "feFuncA",
  "feFuncB",
  "feFuncG",
  "feFuncR",
  "feGaussianBlur",
  "feMerge",
  "feMergeNode",
  "feMorphology",
  "feOffset",
  "fePointLight",
  "feSpecularLighting",
  "feSpotLight",
  "feTile",
  "feTurbulence",
]);

/** An embedded raster picture is the only outside-looking reference kept (`<image href="data:image/png;…">`). */
const RASTER_DATA = /^data:image\/(png|jpeg|webp|gif);base64,[a-z0-9+/=\s]+$/i;

type Node = Record<string, unknown>;

/** The five predefined entities and character references; anything else is not XML without a DTD. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16)
        : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (name in named) return named[name];
    return fail("invalid_input", `The SVG uses the unknown entity ${whole}.`);
  });
}

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, "&quot;");

/** CSS that cannot fetch anything: no @import, and url() only to a fragment of the same document. */
function safeCss(css: string): boolean {
  const flat = css.replace(/\\[0-9a-f]{1,6}\s?/gi, "?").replace(/\/\*[\s\S]*?\*\//g, "").toLowerCase();
  if (/@import|expression\s*\(|javascript:|behavior\s*:|-moz-binding/.test(flat)) return false;
  for (const match of flat.matchAll(/url\s*\(\s*(['"]?)([^'")]*)/g)) {
    if (!match[2].trim().startsWith("#")) return false;
  }
  // A url( the pattern above could not read (broken quoting) is refused too.
  return (flat.match(/url\s*\(/g)?.length ?? 0) === [...flat.matchAll(/url\s*\(\s*(['"]?)([^'")]*)/g)].length;
}

/** Names declared by xmlns attributes, on top of the inherited ones. */
function scopeOf(attributes: Record<string, string>, inherited: Map<string, string>): Map<string, string> {
  let scope = inherited;
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "xmlns" || name.startsWith("xmlns:")) {
      if (scope === inherited) scope = new Map(inherited);
      scope.set(name === "xmlns" ? "" : name.slice(6), decodeEntities(value));
    }
  }
  return scope;
}

function resolve(name: string, scope: Map<string, string>, attribute: boolean) {
  const colon = name.indexOf(":");
  if (colon === -1) return { ns: attribute ? "" : scope.get("") ?? "", local: name };
  return { ns: scope.get(name.slice(0, colon)) ?? "?", local: name.slice(colon + 1) };
}

/** The attributes kept on an element, rewritten without prefixes (`xlink:href` becomes `href`). */
function keptAttributes(element: string, attributes: Record<string, string>, scope: Map<string, string>) {
  const kept: [string, string][] = [];
  for (const [raw, encoded] of Object.entries(attributes)) {
    if (raw === "xmlns" || raw.startsWith("xmlns:")) continue;
    const { ns, local } = resolve(raw, scope, true);
    const value = decodeEntities(encoded);
    const lower = local.toLowerCase();
    if (lower.startsWith("on")) continue;
    if (lower === "href" && (ns === "" || ns === XLINK_NS)) {
      const target = value.trim();
      if (target.startsWith("#") || (element === "image" && RASTER_DATA.test(target))) {
        kept.push(["href", target]);
      }
      continue;
    }
    if (ns !== "" || !/^[a-zA-Z][a-zA-Z0-9_.-]*$/.test(local)) continue;
    if (lower === "src" || lower === "srcdoc" || lower === "formaction" || lower === "action") continue;
    // Browsers skip whitespace and control characters inside a scheme ("java\tscript:").
    const compact = [...value].filter((char) => char.charCodeAt(0) > 0x20).join("").toLowerCase();
    if (/javascript:|vbscript:|data:/.test(compact)) continue;
    if (lower === "style" ? !safeCss(value) : /url\(/.test(compact) && !safeCss(value)) continue;
    kept.push([local, value]);
  }
  return kept;
}

function serialise(nodes: Node[], scope: Map<string, string>, out: string[], parent: string): void {
  for (const node of nodes) {
    if ("#text" in node) {
      const text = decodeEntities(String(node["#text"]));
      if (parent === "style") {
        if (safeCss(text)) out.push(escapeText(text));
      } else out.push(escapeText(text));
      continue;
    }
    if ("#cdata" in node) {
      const text = (node["#cdata"] as Node[]).map((part) => String(part["#text"] ?? "")).join("");
      if (parent !== "style" || safeCss(text)) out.push(escapeText(text));
      continue;
    }
    if ("#comment" in node) continue;
    const name = Object.keys(node).find((key) => key !== ":@");
    if (!name) continue;
    const attributes = (node[":@"] ?? {}) as Record<string, string>;
    const inner = scopeOf(attributes, scope);
    const { ns, local } = resolve(name, inner, false);
    if (ns !== SVG_NS || !ELEMENTS.has(local)) continue;
    const kept = keptAttributes(local, attributes, inner);
    if (local === "image" && !kept.some(([attribute]) => attribute === "href")) continue;
    const rendered = kept.map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join("");
    const root = out.length === 0 ? ` xmlns="${SVG_NS}"` : "";
    out.push(`<${local}${root}${rendered}>`);
    serialise(node[name] as Node[], inner, out, local);
    out.push(`</${local}>`);
  }
}

/**
 * A logo's SVG rebuilt from what a picture needs: SVG elements of an allow-list with their attributes, minus
 * event handlers, scripts, outside references (links, images, CSS imports and url()s that leave the document)
 * and anything of another namespace. A DOCTYPE (entities) or broken XML is refused.
 */
export function sanitiseSvg(source: string): string {
  const text = source.replace(/^\uFEFF/, "");
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    fail(
      "invalid_input",
      "The SVG declares a DOCTYPE or entities; save it as plain SVG and upload it again.",
    );
  }
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) fail("invalid_input", "The file is not a well-formed SVG image.");
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: "",
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    cdataPropName: "#cdata",
    commentPropName: "#comment",
  });
  const nodes = (parser.parse(text) as Node[]).filter((node) => !("#text" in node) && !("#comment" in node));
  const root = nodes.length === 1 ? nodes[0] : null;
  const rootName = root ? Object.keys(root).find((key) => key !== ":@") : undefined;
  if (!root || !rootName) fail("invalid_input", "The file is not an SVG image.");
  const rootScope = scopeOf((root[":@"] ?? {}) as Record<string, string>, new Map());
  const { ns, local } = resolve(rootName, rootScope, false);
  if (ns !== SVG_NS || local !== "svg") fail("invalid_input", "The file is not an SVG image.");
  const out: string[] = [];
  serialise([root], new Map(), out, "");
  return out.join("");
}

/** Whether bytes look like an SVG document (text whose first element is svg). */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 4096)).replace(
    /^\uFEFF/,
    "",
  );
  // A DOCTYPE naming svg counts too, so that sanitiseSvg refuses it with its own sentence.
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg\b|<([a-z0-9_-]+:)?svg[\s>])/i
    .test(head);
}
