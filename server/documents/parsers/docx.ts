import { Buffer } from "node:buffer";
import { officeMeta } from "./office_meta.ts";
import { corruptMessage, type ParsedDocument, ParseFailure, type ParseInput } from "./types.ts";
import { type ParagraphRules, paragraphsOf, parseOrdered } from "./xml.ts";
import { checkEntrySize, openZip, readEntry } from "./zip.ts";
import type JSZip from "jszip";

const WORD_TEXT: ParagraphRules = {
  paragraph: new Set(["p"]),
  text: new Set(["t"]),
  characters: (name) => (name === "br" || name === "cr" ? "\n" : name === "tab" ? "\t" : null),
  skip: new Set(["instrText", "delText"]),
};

type Mammoth = typeof import("mammoth");

let mammoth: Promise<Mammoth> | null = null;

/**
 * mammoth sets prototypes through `__proto__` when it loads, which Deno turns off. The accessor works again
 * only while mammoth loads (in the parse worker process, where parsing runs).
 */
function loadMammoth(): Promise<Mammoth> {
  mammoth ??= (async () => {
    // Deno keeps an accessor there that refuses to set prototypes; a working one stands in while mammoth loads.
    const original = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");
    Object.defineProperty(Object.prototype, "__proto__", {
      configurable: true,
      get() {
        return Object.getPrototypeOf(this);
      },
      set(prototype: unknown) {
        if (prototype === null || typeof prototype === "object" || typeof prototype === "function") {
          Object.setPrototypeOf(this, prototype as object | null);
        }
      },
    });
    try {
      const module = await import("mammoth");
      return (module.default ?? module) as Mammoth;
    } finally {
      if (original) Object.defineProperty(Object.prototype, "__proto__", original);
      // deno-lint-ignore no-explicit-any
      else delete (Object.prototype as any).__proto__;
    }
  })();
  return mammoth;
}

/**
 * Parts of a Word file whose content raw text never shows: mammoth parses each one it finds (numbering and
 * comments), so they are hidden from it. Footnotes and endnotes are read below, on their own.
 */
const UNUSED_PARTS = /^word\/(numbering|comments|commentsExtended|footnotes|endnotes)\.xml$/;
/** Styles name how paragraphs look, which raw text drops; mammoth reads an empty list (it needs one). */
const STYLES_PART = /^word\/styles\.xml$/;
const NO_STYLES =
  '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"></w:styles>';

/**
 * The archive as mammoth reads it (its `file` input): the one already opened, so it is not unzipped twice,
 * with every part inflated within the archive's unpack allowance (zip.ts), the unused parts left out and the
 * styles empty.
 */
function mammothFile(zip: JSZip) {
  const visible = (name: string) => !UNUSED_PARTS.test(name) && zip.file(name) !== null;
  return {
    exists: visible,
    read: async (name: string, encoding?: string) => {
      if (!visible(name)) throw new Error(`${name} is missing`);
      if (encoding === "utf-8" || encoding === "utf8") {
        return STYLES_PART.test(name) ? NO_STYLES : await readEntry(zip, name);
      }
      // Binary parts (images) are not read for raw text; counted against the allowance all the same.
      await checkEntrySize(zip, name);
      const bytes = await zip.file(name)!.async("uint8array");
      return encoding === "base64" ? Buffer.from(bytes).toString("base64") : bytes;
    },
  };
}

export async function parseDocx(input: ParseInput): Promise<ParsedDocument> {
  // Opening the archive first tells an encrypted or damaged file apart before mammoth sees it.
  const zip = await openZip(input, "Word (.docx)");
  const meta = await officeMeta(zip);
  const library = await loadMammoth();
  let text: string;
  try {
    // deno-lint-ignore no-explicit-any
    const result = await library.extractRawText({ file: mammothFile(zip) } as any);
    text = result.value;
  } catch (error) {
    if (error instanceof ParseFailure) throw error;
    throw new ParseFailure("corrupt", corruptMessage(input.name, "Word (.docx)", (error as Error).message));
  }
  // mammoth's raw text leaves footnotes and endnotes out; they often carry sources and definitions.
  const notes: string[] = [];
  for (const part of ["word/footnotes.xml", "word/endnotes.xml"]) {
    const xml = await readEntry(zip, part).catch((error) => {
      if (error instanceof ParseFailure && error.kind === "limit") throw error;
      return null;
    });
    if (xml) notes.push(...paragraphsOf(parseOrdered(xml), WORD_TEXT));
  }
  const body = text.replace(/\n{3,}/g, "\n\n").trim();
  return {
    text: notes.length > 0 ? `${body}\n\n## Notes\n\n${notes.join("\n\n")}`.trim() : body,
    docAuthor: meta.author ?? "no author found",
    description: meta.description ?? meta.title ?? "No description found.",
    docSource: "a docx file uploaded by the user.",
    innerTitle: meta.title,
  };
}
