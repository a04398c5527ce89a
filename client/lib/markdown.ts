import MarkdownIt from "markdown-it";
import { t } from "./i18n.ts";
import { highlightCode, onHighlightChange } from "./highlight.ts";
import { chartSvg } from "./chart_svg.ts";

/**
 * Chat markdown: raw HTML is escaped, never rendered (`html: false`); link targets pass markdown-it's
 * `validateLink`, which refuses javascript:, vbscript:, file: and non-image data: URLs. Fenced code is
 * highlighted with highlight.js when its language is known and loaded (else escaped; the language starts
 * loading, see highlight.ts, and `onMarkdownChange` tells when to render again) and gets a copy button that a
 * delegated click handler serves (`data-code-copy`; no inline script, the CSP is script-src 'self'). Tables
 * sit in a wrapper that scrolls sideways on narrow screens.
 */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const markdown = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  typographer: false,
  highlight(code, language) {
    return (language && highlightCode(code, language)) || escapeHtml(code);
  },
});

const rules = markdown.renderer.rules;

const defaultLinkOpen = rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
rules.link_open = (tokens, index, options, env, self) => {
  tokens[index].attrSet("target", "_blank");
  tokens[index].attrSet("rel", "noopener noreferrer nofollow");
  return defaultLinkOpen(tokens, index, options, env, self);
};

/** A code block inside its frame: the language (or "code") and the copy button above the block. */
function framed(html: string, language: string): string {
  const label = escapeHtml(language || t("chat.code.plain"));
  const copy = escapeHtml(t("chat.code.copy"));
  return `<div class="code-block"><div class="code-block-header"><span class="code-language">${label}</span>` +
    `<button type="button" class="code-copy" data-code-copy="">${copy}</button></div>${html}</div>\n`;
}

const defaultFence = rules.fence!;
rules.fence = (tokens, index, options, env, self) => {
  const info = markdown.utils.unescapeAll(tokens[index].info ?? "").trim();
  const language = info.split(/\s+/)[0] ?? "";
  // A chart the agent drew: its data become an SVG figure (built from parsed numbers and escaped labels).
  if (language === "chart") {
    const figure = chartSvg(tokens[index].content);
    if (figure) return figure;
  }
  tokens[index].attrJoin("class", "hljs");
  return framed(defaultFence(tokens, index, options, env, self).trimEnd(), language);
};
const defaultCodeBlock = rules.code_block!;
rules.code_block = (tokens, index, options, env, self) =>
  framed(defaultCodeBlock(tokens, index, options, env, self).trimEnd(), "");

rules.table_open = (tokens, index, options, _env, self) =>
  `<div class="table-scroll">${self.renderToken(tokens, index, options)}`;
rules.table_close = (tokens, index, options, _env, self) =>
  `${self.renderToken(tokens, index, options)}</div>`;

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/** Rendered final texts, so a long thread renders each answer once (bounded; oldest entries leave first). */
const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

/** A highlighting language arrived: texts rendered before it may render differently now. */
export function onMarkdownChange(listener: () => void): () => void {
  return onHighlightChange(() => {
    cache.clear();
    listener();
  });
}

/** `renderMarkdown` remembered by content: for finished messages, whose text no longer changes. */
export function renderMarkdownCached(source: string): string {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const html = renderMarkdown(source);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(source, html);
  return html;
}
