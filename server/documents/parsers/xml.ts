import { XMLParser } from "fast-xml-parser";

/** A node of fast-xml-parser's ordered output: `{tag: children, ":@": attributes}` or `{"#text": text}`. */
export type XmlNode = Record<string, unknown>;

const BASE_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: "",
  // Text runs keep their spaces ("Hello " + "world"); values stay strings ("007" is not 7).
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The callbacks (all defaults) get the parser's path object rather than its path as a string, which
  // fast-xml-parser would otherwise build for every element: a fifth of its time on a Word body.
  jPath: false,
} as const;

/** XML in document order, for text whose order matters (slides, ODF bodies). */
export function parseOrdered(xml: string): XmlNode[] {
  return new XMLParser({ ...BASE_OPTIONS, preserveOrder: true }).parse(xml) as XmlNode[];
}

/** XML as nested objects (attributes as plain keys, text as `#text`); `arrays` are always arrays. */
export function parseTree(xml: string, arrays: string[] = []): Record<string, unknown> {
  const always = new Set(arrays);
  return new XMLParser({
    ...BASE_OPTIONS,
    textNodeName: "#text",
    isArray: (name) => always.has(name) || always.has(localName(name)),
  }).parse(xml) as Record<string, unknown>;
}

export function localName(tag: string): string {
  const colon = tag.indexOf(":");
  return colon >= 0 ? tag.slice(colon + 1) : tag;
}

export function tagOf(node: XmlNode): string {
  for (const key in node) if (key !== ":@") return key;
  return "";
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const value = node[tagOf(node)];
  return Array.isArray(value) ? value as XmlNode[] : [];
}

export function attributesOf(node: XmlNode): Record<string, string> {
  return (node[":@"] as Record<string, string> | undefined) ?? {};
}

/** Every element (depth first, document order) whose local name is `name`. */
export function findAll(nodes: XmlNode[], name: string, found: XmlNode[] = []): XmlNode[] {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "#text") continue;
    if (localName(tag) === name) found.push(node);
    else findAll(childrenOf(node), name, found);
  }
  return found;
}

export interface ParagraphRules {
  /** Local names of elements that make one paragraph each. */
  paragraph: ReadonlySet<string>;
  /** Local names whose text counts; null: every text node inside a paragraph counts (mixed content). */
  text: ReadonlySet<string> | null;
  /** Empty elements that stand for characters (a line break, a tab, repeated spaces). */
  characters: (name: string, attributes: Record<string, string>) => string | null;
  /** Elements skipped with everything inside them. */
  skip: ReadonlySet<string>;
  /** Collapses runs of white space in text nodes (ODF: spaces are `text:s` elements). */
  collapseSpace?: boolean;
}

/** The paragraphs under `nodes`, each as one line of text; empty paragraphs are dropped. */
export function paragraphsOf(nodes: XmlNode[], rules: ParagraphRules): string[] {
  const paragraphs: string[] = [];
  const open: string[][] = [];
  const walk = (list: XmlNode[], inText: boolean) => {
    for (const node of list) {
      const tag = tagOf(node);
      if (tag === "#text") {
        if (open.length > 0 && (rules.text === null || inText)) {
          const text = String(node["#text"]);
          open[open.length - 1].push(rules.collapseSpace ? text.replace(/\s+/g, " ") : text);
        }
        continue;
      }
      const name = localName(tag);
      if (rules.skip.has(name)) continue;
      const character = open.length > 0 ? rules.characters(name, attributesOf(node)) : null;
      if (character !== null) {
        open[open.length - 1].push(character);
        continue;
      }
      if (rules.paragraph.has(name)) {
        open.push([]);
        walk(childrenOf(node), false);
        const text = open.pop()!.join("").replace(/[ \t]+\n/g, "\n").trim();
        if (text) paragraphs.push(text);
        continue;
      }
      walk(childrenOf(node), inText || (rules.text?.has(name) ?? false));
    }
  };
  walk(nodes, false);
  return paragraphs;
}
