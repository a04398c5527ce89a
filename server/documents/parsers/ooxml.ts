import type JSZip from "jszip";
import { officeMeta } from "./office_meta.ts";
import { tableText } from "./table.ts";
import { type ParsedDocument, type ParseInput } from "./types.ts";
import { attributesOf, findAll, type ParagraphRules, paragraphsOf, parseOrdered, parseTree } from "./xml.ts";
import { openZip, readEntry, requireEntry, resolvePath } from "./zip.ts";

const DRAWING_TEXT: ParagraphRules = {
  paragraph: new Set(["p"]),
  text: new Set(["t"]),
  characters: (name) => (name === "br" ? "\n" : name === "tab" ? "\t" : null),
  skip: new Set(),
};

type Tree = Record<string, unknown>;

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function child(tree: unknown, name: string): Tree | undefined {
  if (!tree || typeof tree !== "object") return undefined;
  for (const [key, value] of Object.entries(tree as Tree)) {
    if (key === name || key.endsWith(`:${name}`)) return value as Tree;
  }
  return undefined;
}

function children(tree: unknown, name: string): Tree[] {
  if (!tree || typeof tree !== "object") return [];
  for (const [key, value] of Object.entries(tree as Tree)) {
    if (key === name || key.endsWith(`:${name}`)) return asArray(value as Tree | Tree[]);
  }
  return [];
}

/** The text of a `<t>`-like value of the tree form: a string, or `{"#text": …}` when it has attributes. */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(textOf).join("");
  if (typeof value === "object" && "#text" in (value as Tree)) return textOf((value as Tree)["#text"]);
  return "";
}

/** Relationship id → archive path, for the part at `partPath`. */
async function relationships(zip: JSZip, partPath: string): Promise<Map<string, string>> {
  const folder = partPath.split("/").slice(0, -1).join("/");
  const file = partPath.split("/").pop();
  const xml = await readEntry(zip, `${folder ? `${folder}/` : ""}_rels/${file}.rels`);
  const map = new Map<string, string>();
  if (xml === null) return map;
  for (const relation of children(child(parseTree(xml, ["Relationship"]), "Relationships"), "Relationship")) {
    const id = String(relation.Id ?? "");
    const target = String(relation.Target ?? "");
    if (id && target && relation.TargetMode !== "External") map.set(id, resolvePath(partPath, target));
  }
  return map;
}

function numbered(zip: JSZip, pattern: RegExp): string[] {
  return Object.keys(zip.files)
    .filter((path) => pattern.test(path))
    .sort((a, b) => Number(pattern.exec(a)![1]) - Number(pattern.exec(b)![1]));
}

/** Slides in presentation order (the slide list of presentation.xml), falling back to their numbers. */
async function slidePaths(zip: JSZip): Promise<string[]> {
  const presentation = await readEntry(zip, "ppt/presentation.xml");
  if (presentation !== null) {
    const rels = await relationships(zip, "ppt/presentation.xml");
    const ids = findAll(parseOrdered(presentation), "sldId").map((node) => attributesOf(node)["r:id"]);
    const paths = ids.map((id) => rels.get(id)).filter((path): path is string => !!path && !!zip.file(path));
    if (paths.length > 0) return paths;
  }
  return numbered(zip, /^ppt\/slides\/slide(\d+)\.xml$/);
}

export async function parsePptx(input: ParseInput): Promise<ParsedDocument> {
  const zip = await openZip(input, "PowerPoint (.pptx)");
  const paths = await slidePaths(zip);
  const sections: string[] = [];
  for (const [index, path] of paths.entries()) {
    const xml = await readEntry(zip, path);
    if (xml === null) continue;
    const paragraphs = paragraphsOf(parseOrdered(xml), DRAWING_TEXT);
    if (paragraphs.length > 0) sections.push(`## Slide ${index + 1}\n\n${paragraphs.join("\n")}`);
  }
  const meta = await officeMeta(zip);
  return {
    text: sections.join("\n\n"),
    docAuthor: meta.author ?? "no author found",
    description: meta.description ?? meta.title ?? "No description found.",
    docSource: "a pptx file uploaded by the user.",
    innerTitle: meta.title,
  };
}

function sharedStringText(item: Tree): string {
  if (item.t !== undefined) return textOf(item.t);
  return children(item, "r").map((run) => textOf(run.t)).join("");
}

function columnIndex(reference: string): number | null {
  const letters = /^([A-Z]+)\d*$/i.exec(reference)?.[1];
  if (!letters) return null;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

function cellText(cell: Tree, shared: string[]): string {
  const type = String(cell.t ?? "n");
  if (type === "inlineStr") return sharedStringText((cell.is as Tree) ?? {});
  const value = textOf(cell.v);
  if (type === "s") return shared[Number(value)] ?? "";
  if (type === "b") return value === "1" ? "TRUE" : value === "0" ? "FALSE" : value;
  return value;
}

export async function parseXlsx(input: ParseInput): Promise<ParsedDocument> {
  const what = "Excel (.xlsx)";
  const zip = await openZip(input, what);
  const workbookXml = await requireEntry(zip, "xl/workbook.xml", input.name, what);
  const rels = await relationships(zip, "xl/workbook.xml");
  const sheets = children(child(child(parseTree(workbookXml, ["sheet"]), "workbook"), "sheets"), "sheet");

  const sharedXml = await readEntry(zip, "xl/sharedStrings.xml");
  const shared = sharedXml === null
    ? []
    : children(child(parseTree(sharedXml, ["si", "r"]), "sst"), "si").map(sharedStringText);

  const listed = sheets
    .map((sheet) => ({ name: String(sheet.name ?? ""), path: rels.get(String(sheet["r:id"] ?? "")) }))
    .filter((sheet): sheet is { name: string; path: string } => !!sheet.path);
  const targets = listed.length > 0
    ? listed
    : numbered(zip, /^xl\/worksheets\/sheet(\d+)\.xml$/).map((path, index) => ({
      name: `Sheet${index + 1}`,
      path,
    }));

  const sections: string[] = [];
  for (const sheet of targets) {
    const xml = await readEntry(zip, sheet.path);
    if (xml === null) continue;
    const rows = children(child(child(parseTree(xml, ["row", "c", "r"]), "worksheet"), "sheetData"), "row")
      .map((row) => {
        const cells: string[] = [];
        for (const cell of children(row, "c")) {
          const column = columnIndex(String(cell.r ?? "")) ?? cells.length;
          while (cells.length < column) cells.push("");
          cells[column] = cellText(cell, shared);
        }
        return cells;
      });
    const table = tableText(rows);
    if (table) sections.push(`## Sheet: ${sheet.name}\n\n${table}`);
  }
  const meta = await officeMeta(zip);
  return {
    text: sections.join("\n\n"),
    docAuthor: meta.author ?? "no author found",
    description: meta.description ?? meta.title ?? "No description found.",
    docSource: "an xlsx file uploaded by the user.",
    innerTitle: meta.title,
  };
}
