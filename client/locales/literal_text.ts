// "No literal text left in components" (issue 24): the words a reader sees in a component's JSX must come from
// the locale files. This finds, in a .tsx file's syntax tree (oxc's, through rolldown which Vite already
// brings), JSX text with letters in it, string literals with letters placed directly as JSX children, and
// reader-facing attributes (aria-label, title, placeholder, alt, ...) given literal text. Brand and protocol
// Example values that read the same in every language are allowed by the test (locales_test.ts).
import { parseAst } from "rolldown/parseAst";

/** Attributes a person reads or hears. */
export const READ_ATTRIBUTES = new Set([
  "aria-label",
  "aria-description",
  "aria-placeholder",
  "aria-roledescription",
  "aria-valuetext",
  "title",
  "placeholder",
  "alt",
  "label",
]);

export interface LiteralText {
  line: number;
  text: string;
  where: string;
}

const LETTER = /\p{L}/u;

type Node = { type: string; start: number; [key: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as Node).type === "string";
}

/** The literal texts with letters a reader would see in one .tsx source. */
export function literalTexts(source: string, filename = "file.tsx"): LiteralText[] {
  const program = parseAst(source, { lang: "tsx" }, filename) as unknown as Node;
  const found: LiteralText[] = [];
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  const report = (node: Node, text: string, where: string) => {
    const trimmed = text.replace(/\s+/g, " ").trim();
    if (!LETTER.test(trimmed)) return;
    found.push({ line: lineOf(node.start), text: trimmed, where });
  };
  /** A string an expression evaluates to when it is written literally ("x", `x`, a ? "x" : "y"). */
  const literalStrings = (node: unknown, where: string) => {
    if (!isNode(node)) return;
    if (node.type === "Literal" && typeof node.value === "string") report(node, node.value, where);
    else if (node.type === "TemplateLiteral") {
      for (const quasi of node.quasis as Node[]) {
        report(quasi, String((quasi.value as { cooked: string }).cooked), where);
      }
    } else if (node.type === "ConditionalExpression") {
      literalStrings(node.consequent, where);
      literalStrings(node.alternate, where);
    } else if (node.type === "LogicalExpression") literalStrings(node.right, where);
  };
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isNode(node)) return;
    if (node.type === "JSXText") report(node, String(node.value), "text");
    else if (node.type === "JSXAttribute") {
      const name = node.name as Node;
      const attribute = name.type === "JSXIdentifier" ? String(name.name) : "";
      if (READ_ATTRIBUTES.has(attribute)) {
        const value = node.value as Node | null;
        if (value?.type === "JSXExpressionContainer") literalStrings(value.expression, attribute);
        else literalStrings(value, attribute);
      }
    } else if (node.type === "JSXExpressionContainer" && isChild(node)) {
      literalStrings(node.expression, "text");
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "type" && key !== "parent" && typeof value === "object") visit(value);
    }
  };
  // Expression containers directly among an element's children (not attribute values, which visit above).
  const children = new Set<unknown>();
  const isChild = (node: Node) => children.has(node);
  const markChildren = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(markChildren);
    if (!isNode(node)) return;
    if ((node.type === "JSXElement" || node.type === "JSXFragment") && Array.isArray(node.children)) {
      for (const child of node.children) children.add(child);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "type" && typeof value === "object") markChildren(value);
    }
  };
  markChildren(program);
  visit(program);
  return found;
}
