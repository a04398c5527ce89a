import { and, asc, eq, sql } from "drizzle-orm";
import { workspaceDocuments } from "../../db/schema.ts";
import { prepared } from "../../db/prepared.ts";
import type { Source } from "../../shared/api/chat.ts";
import type { Deps } from "../deps.ts";
import { metadataOf } from "../documents/store.ts";
import { messageOf } from "../errors.ts";
import type { Embedder } from "../providers/embedders/types.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import type { StoredResponse } from "./history.ts";
import { attachedContext, type AttachmentScope } from "../attachments/service.ts";
import { RERANK_CANDIDATES } from "../../shared/providers/reranker_catalog.ts";
import { rerankerFromSettings } from "../providers/rerankers/registry.ts";
import { rerankHits } from "../providers/rerankers/rerank.ts";
import type { Reranker } from "../providers/rerankers/types.ts";
import { mark } from "../http/timing.ts";
import { fusionWeightsFor } from "../providers/vectors/fusion_weights.ts";

/** Characters of a pinned document shown in its citation. */
const PINNED_PREVIEW_CHARS = 1_000;
const PINNED_CONTINUED = "...continued on in source document...";
/** The context window assumed when the workspace's chat model cannot be built (retrieval still runs). */
const FALLBACK_CONTEXT_WINDOW = 4_096;

export interface Retrieved {
  vectorCount: number;
  /** Citations returned to the client: pinned documents, files attached in the chat, then search results. */
  sources: Source[];
  /**
   * Texts placed in the prompt: pinned documents and attached files whole, the search results, then backfill
   * from recent answers.
   */
  contextTexts: string[];
  /** The query searched when it is not the message: the follow-up rewritten with the conversation. */
  searchQuery?: string;
}

export interface RetrieveOptions {
  /**
   * The chat model's context window in tokens; pinned documents fill at most this much. A chat passes its
   * model's (reply.ts builds the model once); without it the workspace's chat model is built to learn it.
   */
  contextWindow?: number;
  /** Whose files attached in the chat join the context (the thread of the message, and its user). */
  attachments?: AttachmentScope;
  /**
   * The query to search instead of the message (a follow-up rewritten with the conversation, rewrite.ts), or
   * null to search the message; asked only when the workspace has vectors to search.
   */
  rewrite?: () => Promise<string | null>;
  /**
   * The vector count of the workspace's namespace for `embedder`, when the caller asked for it already (a chat
   * asks while it reads the history: turn.ts); asked here otherwise.
   */
  vectorCount?: Promise<number>;
}

/** How the reference identifies a document across chunks and citations: `title:<title>-timestamp:<published>`. */
function identifierOf(source: { title?: unknown; published?: unknown }): string {
  return `title:${source.title}-timestamp:${source.published}`;
}

function contextWindowOf(deps: Deps, workspace: WorkspaceRow, options: RetrieveOptions): number {
  if (options.contextWindow) return options.contextWindow;
  try {
    return deps.providers.chatModel({ provider: workspace.chatProvider, model: workspace.chatModel })
      .contextWindow;
  } catch {
    return FALLBACK_CONTEXT_WINDOW;
  }
}

/**
 * Pinned documents whole, in the order they were added, until their running token estimate reaches the context
 * window (the document that crosses it is still included). A document whose file is gone is skipped.
 */
async function pinnedDocuments(deps: Deps, workspace: WorkspaceRow, contextWindow: number) {
  const rows = await prepared(
    deps.db,
    "pinned documents",
    (db) =>
      db.select({ docpath: workspaceDocuments.docpath }).from(workspaceDocuments)
        .where(and(
          eq(workspaceDocuments.workspaceId, sql.placeholder("workspaceId")),
          eq(workspaceDocuments.pinned, true),
        ))
        .orderBy(asc(workspaceDocuments.id)).prepare(),
  ).all({ workspaceId: workspace.id });
  const pinned: { source: Source; text: string }[] = [];
  let tokens = 0;
  for (const row of rows) {
    if (tokens >= contextWindow) break;
    let document;
    try {
      document = await deps.documents.read(row.docpath);
    } catch (error) {
      deps.log.warn("Cannot read a pinned document", {
        workspace: workspace.slug,
        location: row.docpath,
        error: messageOf(error),
      });
      continue;
    }
    tokens += Number(document.token_count_estimate) || 0;
    pinned.push({
      text: document.pageContent,
      source: {
        ...metadataOf(document),
        text: document.pageContent.slice(0, PINNED_PREVIEW_CHARS) + PINNED_CONTINUED,
      },
    });
  }
  return pinned;
}

export interface ChunkSearch {
  namespace: string;
  embedder: Embedder;
  message: string;
  /** Identifiers of pinned documents, whose chunks are left out (they go whole into the context). */
  pinnedIds?: Set<string>;
  /** How many chunks at most; the workspace's topN unless given (the developer API's vector search). */
  topN?: number;
  /** The lowest similarity kept; the workspace's threshold unless given. */
  similarityThreshold?: number;
}

/**
 * The instance's reranker (shared/providers/reranker_catalog.ts), or null with a warning when its settings do
 * not make one: the search then goes on unreranked.
 */
function instanceReranker(deps: Deps): Reranker | null {
  try {
    return rerankerFromSettings(deps.settings, {
      modelsDir: deps.paths.models,
      fetch: deps.providerDeps.fetch,
      // The local reranker's model is fetched once, from its hub, like the neural embedder's.
      downloads: deps.providers.embedding.models,
    });
  } catch (error) {
    deps.log.warn("No reranker; the search order is kept", { error: messageOf(error) });
    return null;
  }
}

/**
 * The workspace's closest chunks to the message, by vector and (hybrid search) by BM25, without those under the
 * similarity threshold, those of pinned documents, and those whose document row is gone. With the "accuracy
 * optimized" preference (vectorSearchMode "rerank") the search takes RERANK_CANDIDATES (30) candidates, or topN
 * when larger, and the reranker re-scores them before the cut to topN (rerank.ts: its failure keeps the order).
 */
export async function searchChunks(
  deps: Deps,
  workspace: WorkspaceRow,
  search: ChunkSearch,
  signal: AbortSignal,
): Promise<Source[]> {
  // The documents still in the workspace are read while the query is embedded and searched.
  const live = prepared(
    deps.db,
    "documents in a workspace",
    (db) =>
      db.select({ docId: workspaceDocuments.docId }).from(workspaceDocuments)
        .where(eq(workspaceDocuments.workspaceId, sql.placeholder("workspaceId"))).prepare(),
  ).all({ workspaceId: workspace.id }).then((rows) => new Set(rows.map((row) => row.docId)));
  live.catch(() => {});
  const query = await search.embedder.embedQuery(search.message, signal);
  signal.throwIfAborted();
  mark("embedded");
  const threshold = search.similarityThreshold ?? workspace.similarityThreshold;
  const topN = search.topN ?? workspace.topN;
  const reranking = workspace.vectorSearchMode === "rerank";
  const hits = await deps.vectors.search(search.namespace, query, {
    topK: reranking ? Math.max(RERANK_CANDIDATES, topN) : topN,
    text: workspace.hybridSearch ? search.message : undefined,
    fusion: fusionWeightsFor(search.embedder),
  });
  mark("searched");
  // Vectors whose document row is gone (a crash between the two writes) are never cited.
  const liveIds = await live;
  mark("live documents");
  const found: Source[] = [];
  for (const hit of hits) {
    if (hit.score < threshold || !liveIds.has(hit.docId)) continue;
    if (search.pinnedIds?.has(identifierOf(hit.metadata))) continue;
    found.push({ ...hit.metadata, id: hit.id, text: hit.text, score: hit.score });
  }
  if (!reranking) return found;
  return await rerankHits(instanceReranker(deps), search.message, found, topN, deps.log, signal);
}

/**
 * Backfill (docs/api-compat.md#retrieval-pipeline): the texts of recent cited chunks, newest answer first, that fill the
 * search's share up to topN; they are not cited again.
 */
function backfill(
  history: StoredResponse[],
  found: Source[],
  pinnedIds: Set<string>,
  topN: number,
): string[] {
  const texts: string[] = [];
  const seen = new Set(found.map((source) => source.id));
  let filled = found.length;
  for (const response of [...history].reverse()) {
    for (const source of response.sources ?? []) {
      if (filled >= topN) break;
      if (typeof source.score !== "number" || !source.text || !source.id || seen.has(source.id)) continue;
      if (pinnedIds.has(identifierOf(source))) continue;
      seen.add(source.id);
      texts.push(source.text);
      filled++;
    }
  }
  return texts;
}

/**
 * The context of one message (docs/api-compat.md#retrieval-pipeline): pinned documents whole, then the files attached
 * in the chat of this thread (`options.attachments`) whole; then the workspace's
 * closest chunks, by vector and, when the workspace uses hybrid search, by BM25 on their words (fused by
 * reciprocal rank), cut to topN, then those under the similarity threshold dropped; chunks of pinned documents
 * are dropped too. Backfill from recent answers' citations fills up to topN, uncited. A follow-up is searched
 * as `options.rewrite` rewrites it.
 */
export async function retrieve(
  deps: Deps,
  workspace: WorkspaceRow,
  embedder: Embedder,
  message: string,
  history: StoredResponse[],
  signal: AbortSignal,
  options: RetrieveOptions = {},
): Promise<Retrieved> {
  const namespace = workspaceNamespace(workspace.id, embedder);
  const contextWindow = contextWindowOf(deps, workspace, options);
  const counted = options.vectorCount ?? deps.vectors.count(namespace);
  // A follow-up's rewrite (a round trip to the model) starts as soon as there are vectors to search, while the
  // pinned documents and the attached files are read.
  const rewritten = counted.then((count) => count > 0 && options.rewrite ? options.rewrite() : null);
  rewritten.catch(() => {});
  const [pinned, vectorCount] = await Promise.all([pinnedDocuments(deps, workspace, contextWindow), counted]);
  mark("pinned and count");
  // Attached files come after the pinned documents, within what they left of the window.
  const pinnedTokens = pinned.reduce(
    (sum, { source }) => sum + (Number(source.token_count_estimate) || 0),
    0,
  );
  const attached = options.attachments
    ? await attachedContext(deps, options.attachments, contextWindow, pinnedTokens)
    : [];
  mark("attached");
  const pinnedIds = new Set(pinned.map(({ source }) => identifierOf(source)));
  const searchQuery = await rewritten;
  mark("rewritten");
  const found = vectorCount > 0
    ? await searchChunks(
      deps,
      workspace,
      { namespace, embedder, message: searchQuery ?? message, pinnedIds },
      signal,
    )
    : [];
  const whole = [...pinned, ...attached];
  const contextTexts = [
    ...whole.map(({ text }) => text),
    ...found.map((source) => source.text),
    ...backfill(history, found, pinnedIds, workspace.topN),
  ];
  return {
    vectorCount,
    sources: [...whole.map(({ source }) => source), ...found],
    contextTexts,
    ...(searchQuery !== null && searchQuery !== message ? { searchQuery } : {}),
  };
}
