export interface SplitOptions {
  /** Characters; the embedder's maximum wins over a larger setting (api-contract.md §8.3). */
  chunkSize: number;
  chunkOverlap: number;
}

export const DEFAULT_CHUNK_OVERLAP = 20;

export function chunkSizeFor(setting: number | undefined, embedderMaximum: number): number {
  if (!setting || !Number.isFinite(setting) || setting <= 0) return embedderMaximum;
  return Math.min(setting, embedderMaximum);
}

/** The same recursive character splitter as the reference, so chunk boundaries match. */
export async function splitText(text: string, options: SplitOptions): Promise<string[]> {
  const overlap = Math.min(options.chunkOverlap, Math.max(0, options.chunkSize - 1));
  // Loaded on first use: the splitter brings @langchain/core, which a server that is not embedding never needs.
  const { RecursiveCharacterTextSplitter } = await import("@langchain/textsplitters");
  const splitter = new RecursiveCharacterTextSplitter({
    chunkSize: options.chunkSize,
    chunkOverlap: overlap,
  });
  const chunks = await splitter.splitText(text);
  return chunks.filter((chunk) => chunk.trim().length > 0);
}

export interface ChunkHeaderFields {
  title: string;
  published: string;
  chunkSource?: string;
}

/** The metadata header each chunk carries into the embedder and the prompt (api-contract.md §8.3). */
export function chunkHeader(document: ChunkHeaderFields): string {
  const source = document.chunkSource ?? "";
  const sourceLine = source.startsWith("link://") || source.startsWith("youtube://")
    ? `source: ${source.replace(/^(link|youtube):\/\//, "")}\n`
    : "";
  return `<document_metadata>\nsourceDocument: ${document.title}\npublished: ${document.published}\n${sourceLine}</document_metadata>\n\n`;
}
