import { officeMeta } from "./office_meta.ts";
import { corruptMessage, type ParsedDocument, ParseFailure, type ParseInput } from "./types.ts";
import { attributesOf, childrenOf, findAll, type ParagraphRules, paragraphsOf, parseOrdered } from "./xml.ts";
import { openZip, requireEntry } from "./zip.ts";

/** ODF text: `text:p` and `text:h` paragraphs; spaces, tabs and breaks are elements of their own. */
const ODF_TEXT: ParagraphRules = {
  paragraph: new Set(["p", "h"]),
  text: null,
  characters: (name, attributes) => {
    if (name === "s") return " ".repeat(Math.min(1000, Math.max(1, Number(attributes["text:c"] ?? 1) || 1)));
    if (name === "tab") return "\t";
    if (name === "line-break") return "\n";
    return null;
  },
  // Deleted text of tracked changes, and the author and date lines of comments, are not the document's text.
  skip: new Set(["tracked-changes", "creator", "date", "sequence-decls", "notes"]),
  collapseSpace: true,
};

async function odfBody(input: ParseInput, what: string) {
  const zip = await openZip(input, what);
  const content = await requireEntry(zip, "content.xml", input.name, what);
  const body = findAll(parseOrdered(content), "body")[0];
  if (!body) throw new ParseFailure("corrupt", corruptMessage(input.name, what, "content.xml has no body"));
  return { zip, body: childrenOf(body) };
}

export async function parseOdt(input: ParseInput): Promise<ParsedDocument> {
  const { zip, body } = await odfBody(input, "OpenDocument text (.odt)");
  const meta = await officeMeta(zip);
  return {
    text: paragraphsOf(body, ODF_TEXT).join("\n\n"),
    docAuthor: meta.author ?? "no author found",
    description: meta.description ?? meta.title ?? "No description found.",
    docSource: "an odt file uploaded by the user.",
    innerTitle: meta.title,
  };
}

export async function parseOdp(input: ParseInput): Promise<ParsedDocument> {
  const { zip, body } = await odfBody(input, "OpenDocument presentation (.odp)");
  const sections = findAll(body, "page").map((page, index) => {
    const paragraphs = paragraphsOf(childrenOf(page), ODF_TEXT);
    const name = attributesOf(page)["draw:name"];
    const heading = name && !/^page\d+$/i.test(name)
      ? `## Slide ${index + 1}: ${name}`
      : `## Slide ${index + 1}`;
    return paragraphs.length > 0 ? `${heading}\n\n${paragraphs.join("\n")}` : "";
  }).filter((section) => section !== "");
  const meta = await officeMeta(zip);
  return {
    text: sections.join("\n\n"),
    docAuthor: meta.author ?? "no author found",
    description: meta.description ?? meta.title ?? "No description found.",
    docSource: "an odp file uploaded by the user.",
    innerTitle: meta.title,
  };
}
