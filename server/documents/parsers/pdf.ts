import {
  corruptMessage,
  encryptedMessage,
  type ParsedDocument,
  ParseFailure,
  type ParseInput,
} from "./types.ts";

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

function metaString(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function pageText(items: TextItem[]): string {
  let text = "";
  for (const item of items) {
    if (typeof item.str !== "string") continue;
    text += item.str;
    if (item.hasEOL) text += "\n";
  }
  return text
    .replace(/[ \t\u00a0]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * PDF text page by page (pdf.js through unpdf). Pages are joined with a blank line and `pageBreaks` records
 * where each starts, so a chunk can be cited with its page. Author and description come from the metadata.
 */
export async function parsePdf(input: ParseInput): Promise<ParsedDocument> {
  const { getDocumentProxy } = await import("unpdf");
  // deno-lint-ignore no-explicit-any
  let pdf: any;
  try {
    // A copy: pdf.js may take over (detach) the buffer it is given.
    pdf = await getDocumentProxy(new Uint8Array(input.bytes), {
      verbosity: 0,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
    });
  } catch (error) {
    const name = (error as Error)?.name ?? "";
    if (name === "PasswordException") throw new ParseFailure("encrypted", encryptedMessage(input.name));
    throw new ParseFailure("corrupt", corruptMessage(input.name, "PDF", (error as Error)?.message));
  }
  try {
    const info = await pdf.getMetadata().then((meta: { info?: Record<string, unknown> }) => meta.info ?? {})
      .catch(() => ({}));
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      try {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        pages.push(pageText(content.items as TextItem[]));
        page.cleanup();
      } catch {
        // One unreadable page keeps its place (the page numbers of the rest stay right) and nothing else.
        pages.push("");
      }
    }
    const pageBreaks: number[] = [];
    let text = "";
    for (const [index, page] of pages.entries()) {
      if (index > 0) text += "\n\n";
      pageBreaks.push(text.length);
      text += page;
    }
    return {
      text,
      pageBreaks,
      docAuthor: metaString(info.Author) ?? "no author found",
      description: metaString(info.Title) ?? metaString(info.Subject) ?? "No description found.",
      docSource: "a pdf file uploaded by the user.",
      innerTitle: metaString(info.Title),
    };
  } finally {
    await Promise.resolve(pdf.loadingTask?.destroy?.()).catch(() => {});
  }
}
