import type JSZip from "jszip";
import { parseTree } from "./xml.ts";
import { readEntry } from "./zip.ts";
import { ParseFailure } from "./types.ts";

export interface OfficeMeta {
  author?: string;
  title?: string;
  description?: string;
}

function textValue(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (Array.isArray(value)) return textValue(value[0]);
  if (value && typeof value === "object" && "#text" in value) {
    return textValue((value as { "#text": unknown })["#text"]);
  }
  return undefined;
}

function pick(tree: Record<string, unknown>, names: string[]): string | undefined {
  for (const name of names) {
    for (const key of Object.keys(tree)) {
      if (key === name || key.endsWith(`:${name}`)) {
        const value = textValue(tree[key]);
        if (value) return value;
      }
    }
  }
  return undefined;
}

/** Author, title and description from `docProps/core.xml` (OOXML) or `meta.xml` (ODF), when present. */
export async function officeMeta(zip: JSZip): Promise<OfficeMeta> {
  try {
    const core = await readEntry(zip, "docProps/core.xml");
    if (core !== null) {
      const tree = parseTree(core);
      const properties = (Object.entries(tree).find(([key]) =>
        key.endsWith("coreProperties")
      )?.[1] ?? {}) as Record<
        string,
        unknown
      >;
      return {
        author: pick(properties, ["creator", "lastModifiedBy"]),
        title: pick(properties, ["title"]),
        description: pick(properties, ["description", "subject"]),
      };
    }
    const meta = await readEntry(zip, "meta.xml");
    if (meta !== null) {
      const tree = parseTree(meta);
      const root = (Object.entries(tree).find(([key]) => key.endsWith("document-meta"))?.[1] ?? {}) as Record<
        string,
        unknown
      >;
      const properties = (Object.entries(root).find(([key]) => key.endsWith(":meta"))?.[1] ?? {}) as Record<
        string,
        unknown
      >;
      return {
        author: pick(properties, ["initial-creator", "creator"]),
        title: pick(properties, ["title"]),
        description: pick(properties, ["description", "subject"]),
      };
    }
  } catch (error) {
    // Metadata is a nicety; a damaged properties part must not cost the text. A zip bomb is still refused.
    if (error instanceof ParseFailure && error.kind === "limit") throw error;
  }
  return {};
}
