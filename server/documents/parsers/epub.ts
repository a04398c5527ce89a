import { htmlToMarkdown } from "./html.ts";
import { corruptMessage, type ParsedDocument, ParseFailure, type ParseInput } from "./types.ts";
import { parseTree } from "./xml.ts";
import { openZip, readEntry, requireEntry, resolvePath } from "./zip.ts";

type Tree = Record<string, unknown>;

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function field(tree: Tree | undefined, name: string): unknown {
  if (!tree) return undefined;
  for (const [key, value] of Object.entries(tree)) if (key === name || key.endsWith(`:${name}`)) return value;
  return undefined;
}

function text(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === "string") return first.trim() || undefined;
  if (first && typeof first === "object" && "#text" in first) return text((first as Tree)["#text"]);
  return undefined;
}

/** EPUB: the chapters of the spine in reading order, each as Markdown; title and author from the package. */
export async function parseEpub(input: ParseInput): Promise<ParsedDocument> {
  const what = "EPUB";
  const zip = await openZip(input, what);
  const container = parseTree(await requireEntry(zip, "META-INF/container.xml", input.name, what), [
    "rootfile",
  ]);
  const rootfiles = asArray(
    field(field(field(container, "container") as Tree, "rootfiles") as Tree, "rootfile"),
  ) as Tree[];
  const packagePath = String(rootfiles[0]?.["full-path"] ?? "");
  if (!packagePath) {
    throw new ParseFailure("corrupt", corruptMessage(input.name, what, "it names no package file"));
  }
  const packageTree = parseTree(await requireEntry(zip, packagePath, input.name, what), ["item", "itemref"]);
  const root = field(packageTree, "package") as Tree | undefined;
  const metadata = field(root, "metadata") as Tree | undefined;
  const items = new Map<string, Tree>();
  for (const item of asArray(field(field(root, "manifest") as Tree, "item")) as Tree[]) {
    items.set(String(item.id ?? ""), item);
  }

  const encryption = await readEntry(zip, "META-INF/encryption.xml");
  const spine = asArray(field(field(root, "spine") as Tree, "itemref")) as Tree[];
  const chapters: string[] = [];
  for (const reference of spine) {
    const item = items.get(String(reference.idref ?? ""));
    if (!item?.href) continue;
    const path = resolvePath(packagePath, String(item.href));
    // Fonts may be obfuscated without the book being protected; an encrypted chapter means DRM.
    if (encryption?.includes(`URI="${path}"`) || encryption?.includes(`URI="${encodeURI(path)}"`)) {
      throw new ParseFailure("encrypted", `${input.name} is encrypted (DRM-protected) and cannot be read.`);
    }
    const html = await readEntry(zip, path);
    if (html === null) continue;
    const { markdown } = await htmlToMarkdown(html, { readable: false });
    if (markdown) chapters.push(markdown);
  }
  const title = text(field(metadata, "title"));
  return {
    text: chapters.join("\n\n"),
    docAuthor: text(field(metadata, "creator")) ?? "no author found",
    description: text(field(metadata, "description")) ?? title ?? "No description found.",
    docSource: "an epub file uploaded by the user.",
    innerTitle: title,
  };
}
