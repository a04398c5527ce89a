import { charsetFrom, decodeText, holdsBinary } from "../text.ts";
import { corruptMessage, type ParsedDocument, ParseFailure, type ParseInput } from "./types.ts";

/**
 * Plain text (txt, md, org, adoc, rst, and unknown extensions that look like text). UTF-8 unless a BOM or the
 * link's charset says otherwise; a text that is mostly not UTF-8 is read as Windows-1252, the usual legacy
 * encoding of such files.
 */
export function readText(input: ParseInput): string {
  if (holdsBinary(input.bytes)) {
    throw new ParseFailure("corrupt", `${input.name} is not a text file: it holds binary data.`);
  }
  const decoded = decodeText(input.bytes, charsetFrom(input.contentType));
  if (decoded.invalidShare > 0.01) return decodeText(input.bytes, "windows-1252").text;
  return decoded.text;
}

// deno-lint-ignore require-await
export async function parsePlain(input: ParseInput): Promise<ParsedDocument> {
  return {
    text: readText(input),
    docAuthor: "Unknown",
    description: "Unknown",
    docSource: "a text file uploaded by the user.",
  };
}

export async function parseCsv(input: ParseInput): Promise<ParsedDocument> {
  const { default: Papa } = await import("papaparse");
  const result = Papa.parse<string[]>(readText(input), { skipEmptyLines: "greedy" });
  return {
    text: (await import("./table.ts")).tableText(result.data),
    docAuthor: "Unknown",
    description: "Unknown",
    docSource: "a csv file uploaded by the user.",
  };
}

/** JSON, pretty-printed; JSON Lines (one value per line) is read too. */
// deno-lint-ignore require-await
export async function parseJson(input: ParseInput): Promise<ParsedDocument> {
  const text = readText(input);
  let pretty: string;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch (error) {
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    try {
      if (lines.length < 2) throw error;
      pretty = lines.map((line) => JSON.stringify(JSON.parse(line), null, 2)).join("\n\n");
    } catch {
      throw new ParseFailure("corrupt", corruptMessage(input.name, "JSON", (error as Error).message));
    }
  }
  return {
    text: pretty,
    docAuthor: "Unknown",
    description: "Unknown",
    docSource: "a json file uploaded by the user.",
  };
}
