/**
 * A small markdown reader for the widget's answers: it turns the model's text into a tree of a few node kinds,
 * which the view builds as DOM elements with text nodes (client/embed/view.ts). Nothing is ever parsed as HTML:
 * a `<script>` in an answer stays the text "<script>". Links keep only http(s) and mailto addresses; images
 * become links (an answer cannot make the visitor's browser fetch an address by itself).
 */

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong"; children: Inline[] }
  | { kind: "em"; children: Inline[] }
  | { kind: "link"; href: string; children: Inline[] }
  | { kind: "br" };

export type Block =
  | { kind: "paragraph"; children: Inline[] }
  | { kind: "heading"; level: number; children: Inline[] }
  | { kind: "code"; language: string; text: string }
  | { kind: "quote"; children: Block[] }
  | { kind: "list"; ordered: boolean; start: number; items: Inline[][] }
  | { kind: "rule" };

/** A link target the widget may open, else null. */
export function safeHref(target: string): string | null {
  const value = target.trim().replace(/^<|>$/g, "");
  if (!/^(https?:\/\/|mailto:)/i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

const INLINE =
  /`([^`\n]+)`|(!?)\[([^\]\n]*)\]\(([^)\s]+)(?:\s+"[^"\n]*")?\)|\*\*(?=\S)([\s\S]+?)\*\*|__(?=\S)([\s\S]+?)__|\*(?=[^\s*])([\s\S]+?)\*|(?<![\w])_(?=\S)([\s\S]+?)_(?![\w])|(https?:\/\/[^\s<>"'`]+[^\s<>"'`.,:;!?)\]])/;

function pushText(out: Inline[], text: string): void {
  if (text === "") return;
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (index > 0) out.push({ kind: "br" });
    if (line === "") return;
    const last = out[out.length - 1];
    if (last?.kind === "text") last.text += line;
    else out.push({ kind: "text", text: line });
  });
}

/** The inline nodes of a run of text. */
export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let rest = source;
  while (rest !== "") {
    const match = INLINE.exec(rest);
    if (!match) {
      pushText(out, rest);
      break;
    }
    pushText(out, rest.slice(0, match.index));
    rest = rest.slice(match.index + match[0].length);
    const [, code, bang, label, target, strong1, strong2, em1, em2, url] = match;
    if (code !== undefined) out.push({ kind: "code", text: code });
    else if (target !== undefined) {
      const href = safeHref(target);
      const children = label === "" && bang ? [{ kind: "text" as const, text: target }] : parseInline(label);
      if (href) out.push({ kind: "link", href, children });
      else pushText(out, label);
    } else if (strong1 !== undefined || strong2 !== undefined) {
      out.push({ kind: "strong", children: parseInline(strong1 ?? strong2) });
    } else if (em1 !== undefined || em2 !== undefined) {
      out.push({ kind: "em", children: parseInline(em1 ?? em2) });
    } else if (url !== undefined) {
      const href = safeHref(url);
      if (href) out.push({ kind: "link", href, children: [{ kind: "text", text: url }] });
      else pushText(out, url);
    }
  }
  return out;
}

const FENCE = /^ {0,3}(```+|~~~+)\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/** The blocks of a whole answer. An unclosed code fence (a streaming answer) runs to the end. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", children: parseInline(paragraph.join("\n")) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      const close = new RegExp(`^ {0,3}${fence[1][0] === "`" ? "`" : "~"}{${fence[1].length},}\\s*$`);
      for (i++; i < lines.length && !close.test(lines[i]); i++) body.push(lines[i]);
      blocks.push({ kind: "code", language: fence[2], text: body.join("\n") });
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1].length, children: parseInline(heading[2]) });
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ kind: "rule" });
      continue;
    }
    if (QUOTE.test(line)) {
      flush();
      const quoted: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) quoted.push(QUOTE.exec(lines[i])![1]);
      i--;
      blocks.push({ kind: "quote", children: parseMarkdown(quoted.join("\n")) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = ORDERED.exec(line);
    if (bullet || ordered) {
      flush();
      const pattern = bullet ? BULLET : ORDERED;
      const items: string[][] = [];
      for (; i < lines.length; i++) {
        const item = pattern.exec(lines[i]);
        if (item) items.push([bullet ? item[1] : item[2]]);
        else if (lines[i].trim() !== "" && /^\s+\S/.test(lines[i]) && items.length > 0) {
          items[items.length - 1].push(lines[i].trim());
        } else break;
      }
      i--;
      blocks.push({
        kind: "list",
        ordered: !bullet,
        start: ordered ? Number(ordered[1]) : 1,
        items: items.map((item) => parseInline(item.join("\n"))),
      });
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}
