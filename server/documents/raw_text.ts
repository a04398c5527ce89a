import slugify from "slugify";
import type { StoredDocument } from "../../shared/api/documents.ts";
import type { RawTextMetadata } from "../../shared/api/v1_documents.ts";
import { fail } from "../errors.ts";
import type { DocumentStore } from "./store.ts";

/** The reference's name for raw text: the title without its last extension, slugified in lower case. */
export function rawTextSlug(title: string): string {
  const base = title.includes(".") ? title.split(".").slice(0, -1).join("-") : title;
  return slugify(base, { lower: true }).replace(/[^\p{L}\p{N}._-]+/gu, "-").replace(/^[.-]+/, "") ||
    "document";
}

function isWebLink(url: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** `published`: a time in milliseconds (number or digits), else now; shown as the reference shows it. */
function publishedOf(value: number | string | null | undefined): string {
  const milliseconds = value === null || value === undefined || value === "" ? NaN : Number(value);
  const date = Number.isFinite(milliseconds) ? new Date(milliseconds) : new Date();
  return (Number.isNaN(date.getTime()) ? new Date() : date).toLocaleString("en-US");
}

/**
 * Stores text sent by the developer API (`POST /v1/document/raw-text`) as a document with the reference's
 * fields: title `<slug>.txt`, url `web://<url>.website` for a web link else `file://<slug>.txt`, the metadata's
 * author, description and sources or the reference's defaults. Text over the upload limit is a 413 and is not
 * stored.
 */
export function saveRawText(
  deps: { documents: Pick<DocumentStore, "save">; config: { maxUploadBytes: number } },
  text: string,
  metadata: RawTextMetadata,
): Promise<StoredDocument> {
  if (new TextEncoder().encode(text).length > deps.config.maxUploadBytes) {
    fail(
      "too_large",
      `The text is too large: the limit is ${Math.round(deps.config.maxUploadBytes / 1024 / 1024)} MB.`,
    );
  }
  const slug = rawTextSlug(metadata.title);
  const url = metadata.url ?? "";
  return deps.documents.save({
    fileStem: `raw-${slug}`,
    title: `${slug}.txt`,
    url: isWebLink(url) ? `web://${url.toLowerCase()}.website` : `file://${slug}.txt`,
    docAuthor: metadata.docAuthor ?? "no author specified",
    description: metadata.description ?? "no description found",
    docSource: metadata.docSource ?? "no source set",
    chunkSource: metadata.chunkSource ?? `${slug}.txt`,
    published: publishedOf(metadata.published),
    text,
  });
}
