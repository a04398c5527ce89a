import { join } from "node:path";
import { documents } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";

export interface SeededDocument {
  location: string;
  /** The document JSON on disk. */
  path: string;
  /** The kept original upload. */
  uploadPath: string;
}

export interface SeedOptions {
  folder?: string;
  text?: string;
  chunkSource?: string;
  published?: string;
}

/**
 * Stores documents the way an upload does (document JSON, original upload, index row), without
 * parsing, for tests and benchmarks of the document store. Rows go in one batched insert.
 */
export async function seedDocuments(
  deps: Pick<Deps, "db" | "paths">,
  entries: ({ title: string } & SeedOptions)[],
): Promise<SeededDocument[]> {
  const seeded: SeededDocument[] = [];
  const rows: (typeof documents.$inferInsert)[] = [];
  const folders = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const folder = entry.folder ?? "custom-documents";
    if (!folders.has(folder)) {
      await Deno.mkdir(join(deps.paths.documents, folder), { recursive: true });
      folders.add(folder);
    }
    const id = crypto.randomUUID();
    const filename = `${entry.title.replace(/[^\w.-]+/g, "-")}-${id}.json`;
    const location = `${folder}/${filename}`;
    const text = entry.text ?? `${entry.title} is a document about ${entry.title.toLowerCase()}.`;
    const document = {
      id,
      url: entry.chunkSource?.startsWith("link://") ? `file://${filename}` : `file://${entry.title}`,
      title: entry.title,
      docAuthor: "Unknown",
      description: "Unknown",
      docSource: entry.chunkSource ? "URL link uploaded by the user." : "a text file uploaded by the user.",
      chunkSource: entry.chunkSource ?? "",
      published: entry.published ?? `1/${(index % 28) + 1}/2026, 10:00:00 AM`,
      wordCount: text.split(" ").length,
      pageContent: text,
      token_count_estimate: Math.ceil(text.length / 4),
    };
    const path = join(deps.paths.documents, folder, filename);
    await Deno.writeTextFile(path, JSON.stringify(document, null, 4));
    const uploadName = `${crypto.randomUUID()}.txt`;
    const uploadPath = join(deps.paths.uploads, uploadName);
    await Deno.writeTextFile(uploadPath, text);
    const { pageContent: _text, ...metadata } = document;
    rows.push({
      location,
      folder,
      filename,
      title: entry.title,
      metadata: JSON.stringify({ ...metadata, uploadName }),
      wordCount: document.wordCount,
      tokenCountEstimate: document.token_count_estimate,
    });
    seeded.push({ location, path, uploadPath });
  }
  for (let start = 0; start < rows.length; start += 500) {
    await deps.db.insert(documents).values(rows.slice(start, start + 500));
  }
  return seeded;
}

export async function seedDocument(
  deps: Pick<Deps, "db" | "paths">,
  title: string,
  options: SeedOptions = {},
): Promise<SeededDocument> {
  const [seeded] = await seedDocuments(deps, [{ title, ...options }]);
  return seeded;
}
