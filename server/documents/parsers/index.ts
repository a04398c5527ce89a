import { extensionOf, looksLikeText, unsupportedMessage } from "../text.ts";
import {
  DEFAULT_MAX_TEXT_CHARS,
  emptyMessage,
  type ParsedDocument,
  ParseFailure,
  type ParseInput,
  type Parser,
  textTooLargeMessage,
} from "./types.ts";

// Each parser loads with its libraries on first use, so the worker only pays for the format it reads.
// The specifiers are literal so `deno compile` bundles them.
const plain = () => import("./plain.ts").then((module) => module.parsePlain);
const PARSERS: Record<string, () => Promise<Parser>> = {
  ".txt": plain,
  ".md": plain,
  ".org": plain,
  ".adoc": plain,
  ".rst": plain,
  ".html": () => import("./html.ts").then((module) => module.parseHtml),
  ".htm": () => import("./html.ts").then((module) => module.parseHtml),
  ".csv": () => import("./plain.ts").then((module) => module.parseCsv),
  ".json": () => import("./plain.ts").then((module) => module.parseJson),
  ".docx": () => import("./docx.ts").then((module) => module.parseDocx),
  ".pptx": () => import("./ooxml.ts").then((module) => module.parsePptx),
  ".xlsx": () => import("./ooxml.ts").then((module) => module.parseXlsx),
  ".odt": () => import("./odf.ts").then((module) => module.parseOdt),
  ".odp": () => import("./odf.ts").then((module) => module.parseOdp),
  ".pdf": () => import("./pdf.ts").then((module) => module.parsePdf),
  ".epub": () => import("./epub.ts").then((module) => module.parseEpub),
  ".mbox": () => import("./mbox.ts").then((module) => module.parseMbox),
};

/**
 * Images, audio and video: the reference reads them through OCR and speech-to-text, which this version does
 * not have. They are refused by name, even when their bytes happen to pass for text.
 */
const MEDIA = new Set([
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".bmp",
  ".tif",
  ".tiff",
  ".heic",
  ".svg",
  ".ico",
  ".wav",
  ".mp3",
  ".ogg",
  ".oga",
  ".opus",
  ".m4a",
  ".aac",
  ".flac",
  ".webm",
  ".mp4",
  ".mpeg",
  ".mov",
  ".mkv",
  ".avi",
]);

export function canParse(extension: string): boolean {
  return extension in PARSERS;
}

/**
 * The text and metadata of one file, chosen by its extension. An unknown extension is read as text when the
 * bytes look like text. A text longer than `maxTextChars` is refused. Runs inside the parse worker
 * (parse_worker.ts); call parseInWorker from the server.
 */
export async function parseDocument(input: ParseInput): Promise<ParsedDocument> {
  const extension = extensionOf(input.name);
  const load = PARSERS[extension] ?? (!MEDIA.has(extension) && looksLikeText(input.bytes) ? plain : null);
  if (!load) throw new ParseFailure("unsupported", unsupportedMessage(extension));
  if (input.bytes.length === 0) throw new ParseFailure("empty", emptyMessage(input.name));
  const parsed = await (await load())(input);
  const maxTextChars = input.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  if (parsed.text.length > maxTextChars) {
    throw new ParseFailure("limit", textTooLargeMessage(input.name, maxTextChars));
  }
  const { text, pageBreaks } = withoutControls(parsed.text, parsed.pageBreaks);
  if (text.trim() === "") throw new ParseFailure("empty", emptyMessage(input.name));
  return { ...parsed, text, ...(pageBreaks ? { pageBreaks } : {}) };
}

// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * Drops NUL and the other C0 controls (they carry nothing for a reader and upset tokenizers), moving the page
 * offsets back by the characters removed before them.
 */
export function withoutControls(
  text: string,
  pageBreaks?: number[],
): { text: string; pageBreaks?: number[] } {
  if (!pageBreaks) return { text: text.replace(CONTROLS, "") };
  const moved: number[] = [];
  let out = "";
  let previous = 0;
  for (const offset of [...pageBreaks, text.length]) {
    out += text.slice(previous, offset).replace(CONTROLS, "");
    moved.push(out.length);
    previous = offset;
  }
  moved.pop();
  return { text: out, pageBreaks: moved };
}
