import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import { workspaceChats, workspaceThreads } from "../../db/schema.ts";
import type { HistoryEntry } from "../../shared/api/chat.ts";
import type * as z from "zod";
import type { V1VectorSearchResult } from "../../shared/api/v1_workspaces.ts";
import type { Deps } from "../deps.ts";
import { searchChunks } from "../chat/retrieve.ts";
import { toHistory } from "../chat/history.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";

export type ThreadSummary = { workspaceId: number; user_id: number | null; slug: string; name: string };

/** The threads of these workspaces, every user's (an API key has no user), oldest first. */
export async function threadsOf(deps: Pick<Deps, "db">, workspaceIds: number[]): Promise<ThreadSummary[]> {
  if (workspaceIds.length === 0) return [];
  return await deps.db.select({
    workspaceId: workspaceThreads.workspaceId,
    user_id: workspaceThreads.userId,
    slug: workspaceThreads.slug,
    name: workspaceThreads.name,
  }).from(workspaceThreads).where(inArray(workspaceThreads.workspaceId, workspaceIds))
    .orderBy(asc(workspaceThreads.id));
}

export interface ChatsQuery {
  /** Only the chats made through the API with this `sessionId`. */
  apiSessionId?: string;
  limit: number;
  orderBy: "asc" | "desc";
}

/**
 * `GET /v1/workspace/:slug/chats` as the reference answers it: the default thread's chats (not threads'), of
 * every user, in `orderBy` order of time, the first `limit`. Without `apiSessionId` the chats of the UI (those
 * not cleared by /reset); with it that API session's chats (made without a user), cleared ones too.
 */
export async function workspaceChatHistory(
  deps: Pick<Deps, "db">,
  workspace: WorkspaceRow,
  query: ChatsQuery,
): Promise<HistoryEntry[]> {
  const filter = query.apiSessionId
    ? and(
      eq(workspaceChats.workspaceId, workspace.id),
      isNull(workspaceChats.threadId),
      isNull(workspaceChats.userId),
      eq(workspaceChats.apiSessionId, query.apiSessionId),
    )
    : and(
      eq(workspaceChats.workspaceId, workspace.id),
      isNull(workspaceChats.threadId),
      isNull(workspaceChats.apiSessionId),
      eq(workspaceChats.include, true),
    );
  const order = query.orderBy === "desc" ? desc : asc;
  const rows = await deps.db.select().from(workspaceChats).where(filter)
    .orderBy(order(workspaceChats.createdAt), order(workspaceChats.id)).limit(query.limit);
  return toHistory(rows);
}

type VectorSearchResult = z.infer<typeof V1VectorSearchResult>;

/**
 * `POST /v1/workspace/:slug/vector-search`: the chat's search (the active embedder, the workspace's namespace,
 * hybrid search when the workspace uses it, chunks of removed documents left out) with the caller's topN and
 * threshold, in the reference's answer shape; null when the workspace has no embeddings.
 */
export async function vectorSearch(
  deps: Deps,
  workspace: WorkspaceRow,
  search: { query: string; topN?: number | null; scoreThreshold?: number | null },
  signal: AbortSignal,
): Promise<VectorSearchResult[] | null> {
  const embedder = deps.providers.embedder();
  const namespace = workspaceNamespace(workspace.id, embedder);
  if (await deps.vectors.count(namespace) === 0) return null;
  const found = await searchChunks(deps, workspace, {
    namespace,
    embedder,
    message: search.query,
    topN: search.topN ?? undefined,
    similarityThreshold: search.scoreThreshold ?? undefined,
  }, signal);
  return found.map((source) => {
    const score = source.score ?? 0;
    return {
      id: source.id ?? "",
      text: source.text,
      metadata: {
        url: source.url,
        title: source.title,
        author: source.docAuthor,
        description: source.description,
        docSource: source.docSource,
        chunkSource: source.chunkSource,
        published: source.published,
        wordCount: source.wordCount,
        tokenCount: source.token_count_estimate,
      },
      distance: 1 - score,
      score,
    };
  });
}
