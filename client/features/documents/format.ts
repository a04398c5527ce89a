import { formatDate } from "../dates.ts";

const numbers = new Intl.NumberFormat("en");

export function formatCount(value: number): string {
  return numbers.format(value);
}

/** The picker's `published` is a locale string ("1/2/2026, 3:04:05 PM"); shown the app's way when it parses. */
export function formatPublished(value: string | undefined): string {
  return value ? formatDate(value) : "";
}

/** The last part of a `folder/file.json` location. */
export function fileOf(location: string): string {
  return location.slice(location.indexOf("/") + 1);
}

/** The title and figures kept in a workspace document's metadata JSON. */
export function workspaceDocumentInfo(metadata: string | null, fallback: string) {
  let parsed: Record<string, unknown> = {};
  try {
    const value = metadata ? JSON.parse(metadata) : null;
    if (value && typeof value === "object") parsed = value;
  } catch {
    // A damaged row still shows, under its file name.
  }
  const text = (key: string) => (typeof parsed[key] === "string" ? parsed[key] as string : "");
  const number = (key: string) => (typeof parsed[key] === "number" ? parsed[key] as number : null);
  return {
    title: text("title") || fallback,
    chunkSource: text("chunkSource"),
    published: text("published"),
    words: number("wordCount"),
    tokens: number("token_count_estimate"),
  };
}
