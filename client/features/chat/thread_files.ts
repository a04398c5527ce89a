import type { ParsedFileItem, ParsedFileRow } from "../../../shared/api/attachments.ts";
import { IMAGE_TYPES } from "./attachments.ts";

/**
 * A file attached to a thread, as the composer shows it: parsed and part of the thread's context (`ready`),
 * or still on its way there or out of it. `id` is the server's parsed-file id, null while it is being read.
 */
export interface ThreadFile {
  key: string;
  id: number | null;
  name: string;
  tokens: number;
  state: "parsing" | "ready" | "removing" | "embedding";
}

/**
 * Splits what was attached, dropped or pasted: the images a message carries (PNG, JPEG, WebP, GIF) and every
 * other file, which is read by the server into the thread's context.
 */
export function sortAttachments(files: File[]): { images: File[]; documents: File[] } {
  const images: File[] = [];
  const documents: File[] = [];
  for (const file of files) {
    if ((IMAGE_TYPES as readonly string[]).includes(file.type)) images.push(file);
    else documents.push(file);
  }
  return { images, documents };
}

/** A file the parsed-files list names. */
export function fromListed(item: ParsedFileItem): ThreadFile {
  return {
    key: `file-${item.id}`,
    id: item.id,
    name: item.title || item.location.split("/").pop() || String(item.id),
    tokens: item.token_count_estimate,
    state: "ready",
  };
}

/** The file `POST /parse` answered, named as the parsed-files list will name it (the title it found). */
export function fromParsed(row: ParsedFileRow, uploadedName: string): ThreadFile {
  let title = "";
  try {
    const metadata = JSON.parse(row.metadata);
    if (metadata && typeof metadata.title === "string") title = metadata.title;
  } catch {
    // The uploaded name is used.
  }
  return {
    key: `file-${row.id}`,
    id: row.id,
    name: title || uploadedName,
    tokens: row.tokenCountEstimate,
    state: "ready",
  };
}

/**
 * How much of the context window the thread's files fill: what the server adds to every prompt of the thread
 * (server/chat/retrieve.ts). Files still being read count once they are in. `percent` is null without a known
 * window; `over` says the files do not all fit, so the last ones are left out of answers.
 */
export function contextUsage(
  files: ThreadFile[],
  contextWindow: number | null,
): { tokens: number; percent: number | null; over: boolean } {
  const tokens = files.reduce((sum, file) => sum + (file.id === null ? 0 : file.tokens), 0);
  if (!contextWindow || contextWindow <= 0) return { tokens, percent: null, over: false };
  return {
    tokens,
    percent: Math.min(999, Math.round((tokens / contextWindow) * 100)),
    over: tokens > contextWindow,
  };
}

/**
 * Whether the server's sentence refusing a file already names it ("report.pdf could not be parsed..."): then
 * the toast shows it as it is, else after the file's name.
 */
export function namesFile(sentence: string, name: string): boolean {
  return name !== "" && sentence.includes(name);
}
