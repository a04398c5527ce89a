import MarkdownIt from "markdown-it";

/**
 * Chat markdown: raw HTML is escaped, never rendered (`html: false`); link targets pass markdown-it's
 * `validateLink`, which refuses javascript:, vbscript:, file: and non-image data: URLs.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

const defaultLinkOpen = markdown.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index].attrSet("target", "_blank");
  tokens[index].attrSet("rel", "noopener noreferrer nofollow");
  return defaultLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
