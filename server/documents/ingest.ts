import { and, eq, inArray } from "drizzle-orm";
import { workspaceDocuments } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import type { VectorRecord } from "../providers/vectors/types.ts";
import { LABELS } from "../settings/service.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { chunkHeader, chunkSizeFor, DEFAULT_CHUNK_OVERLAP, splitText } from "./chunker.ts";
import { metadataOf, pageAt } from "./store.ts";

/** Each chunk's page, found by walking the text (chunks come in order and overlap a little). */
function chunkPages(
  content: string,
  chunks: string[],
  pageBreaks: number[] | undefined,
): (number | undefined)[] {
  if (!pageBreaks?.length) return chunks.map(() => undefined);
  let cursor = 0;
  return chunks.map((chunk) => {
    const found = content.indexOf(chunk, Math.max(0, cursor - chunk.length));
    if (found >= 0) cursor = found + 1;
    return pageAt(pageBreaks, found >= 0 ? found : cursor);
  });
}

export interface EmbedOutcome {
  added: number;
  failures: string[];
}

/** Splits, embeds and stores each document in the workspace (api-contract.md §8.5); one failure never stops the rest. */
export async function addDocuments(
  deps: Deps,
  workspace: WorkspaceRow,
  locations: string[],
): Promise<EmbedOutcome> {
  const failures: string[] = [];
  let added = 0;
  const embedder = deps.providers.embedder();
  const namespace = workspaceNamespace(workspace.id, embedder);
  const chunkSize = chunkSizeFor(
    Number(deps.settings.label(LABELS.textSplitterChunkSize)),
    embedder.maxChunkLength,
  );
  const overlapSetting = Number(deps.settings.label(LABELS.textSplitterChunkOverlap));
  const chunkOverlap = Number.isFinite(overlapSetting) && overlapSetting >= 0
    ? overlapSetting
    : DEFAULT_CHUNK_OVERLAP;

  for (const location of new Set(locations)) {
    const docId = crypto.randomUUID();
    try {
      const already = await deps.db.select({ id: workspaceDocuments.id }).from(workspaceDocuments).where(
        and(eq(workspaceDocuments.workspaceId, workspace.id), eq(workspaceDocuments.docpath, location)),
      );
      if (already.length > 0) continue;
      const document = await deps.documents.read(location);
      const metadata = metadataOf(document);
      const header = chunkHeader(document);
      const chunks = await splitText(document.pageContent, { chunkSize, chunkOverlap });
      if (chunks.length === 0) throw new Error(`${document.title} has no text to embed`);
      const texts = chunks.map((chunk) => header + chunk);
      const pages = chunkPages(document.pageContent, chunks, document.pageBreaks);
      const records: VectorRecord[] = [];
      for (let start = 0; start < texts.length; start += embedder.maxInputsPerCall) {
        const batch = texts.slice(start, start + embedder.maxInputsPerCall);
        const vectors = await embedder.embed(batch);
        batch.forEach((text, index) => {
          const page = pages[start + index];
          records.push({
            id: crypto.randomUUID(),
            docId,
            vector: vectors[index],
            text,
            metadata: page === undefined ? metadata : { ...metadata, page },
          });
        });
      }
      await deps.vectors.upsert(namespace, records);
      try {
        await deps.db.insert(workspaceDocuments).values({
          docId,
          filename: location.split("/").pop() ?? location,
          docpath: location,
          workspaceId: workspace.id,
          metadata: JSON.stringify(metadata),
        });
      } catch (error) {
        await deps.vectors.deleteDocuments(namespace, [docId]).catch(() => {});
        throw error;
      }
      added++;
    } catch (error) {
      deps.log.warn("Cannot embed document", {
        workspace: workspace.slug,
        location,
        error: messageOf(error),
      });
      failures.push(`${location}: ${messageOf(error)}`);
    }
  }
  return { added, failures };
}

/** Removes documents from the workspace: their vectors, then their rows. */
export async function removeDocuments(
  deps: Deps,
  workspace: WorkspaceRow,
  locations: string[],
): Promise<void> {
  if (locations.length === 0) return;
  const rows = await deps.db.select().from(workspaceDocuments).where(
    and(eq(workspaceDocuments.workspaceId, workspace.id), inArray(workspaceDocuments.docpath, locations)),
  );
  if (rows.length === 0) return;
  const docIds = rows.map((row) => row.docId);
  await deps.vectors.deleteDocuments(workspaceNamespace(workspace.id, deps.providers.embedder()), docIds);
  await deps.db.delete(workspaceDocuments).where(inArray(workspaceDocuments.docId, docIds));
}
