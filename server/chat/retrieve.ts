import { eq } from "drizzle-orm";
import { workspaceDocuments } from "../../db/schema.ts";
import type { Source } from "../../shared/api/chat.ts";
import type { Deps } from "../deps.ts";
import type { Embedder } from "../providers/embedders/types.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import type { StoredResponse } from "./history.ts";

export interface Retrieved {
  vectorCount: number;
  /** Citations returned to the client. */
  sources: Source[];
  /** Texts placed in the prompt: the citations, then backfill from recent answers. */
  contextTexts: string[];
}

/**
 * The context of one message (api-contract.md §8.4 steps 4-6): the workspace's closest chunks above the
 * similarity threshold as citations, then backfill from recent answers' citations up to topN, uncited.
 */
export async function retrieve(
  deps: Deps,
  workspace: WorkspaceRow,
  embedder: Embedder,
  message: string,
  history: StoredResponse[],
  signal: AbortSignal,
): Promise<Retrieved> {
  const namespace = workspaceNamespace(workspace.id, embedder);
  const vectorCount = await deps.vectors.count(namespace);
  const sources: Source[] = [];
  if (vectorCount > 0) {
    const [query] = await embedder.embed([message], signal);
    const hits = await deps.vectors.search(namespace, query, { topK: workspace.topN });
    // Vectors whose document row is gone (a crash between the two writes) are never cited.
    const live = new Set(
      (await deps.db.select({ docId: workspaceDocuments.docId }).from(workspaceDocuments)
        .where(eq(workspaceDocuments.workspaceId, workspace.id))).map((row) => row.docId),
    );
    for (const hit of hits) {
      if (hit.score < workspace.similarityThreshold || !live.has(hit.docId)) continue;
      sources.push({ ...hit.metadata, id: hit.id, text: hit.text, score: hit.score });
    }
  }
  const contextTexts = sources.map((source) => source.text);
  // Backfill (api-contract.md §8.4 step 5): recent cited chunks fill the context up to topN, uncited.
  const seen = new Set(sources.map((source) => source.id));
  for (const response of [...history].reverse()) {
    for (const source of response.sources ?? []) {
      if (contextTexts.length >= workspace.topN) break;
      if (typeof source.score !== "number" || !source.text || !source.id || seen.has(source.id)) continue;
      seen.add(source.id);
      contextTexts.push(source.text);
    }
  }
  return { vectorCount, sources, contextTexts };
}
