import type { workspaceDocuments, workspaces } from "../../db/schema.ts";
import type { Workspace, WorkspaceDocument } from "../../shared/api/workspaces.ts";

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceDocumentRow = typeof workspaceDocuments.$inferSelect;

/**
 * The bare workspace row with the reference's field names (docs/api-compat.md#workspace-object-and-slugs).
 */
export function presentWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    vectorTag: row.vectorTag,
    createdAt: row.createdAt.toISOString(),
    openAiTemp: row.openAiTemp,
    openAiHistory: row.openAiHistory,
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
    openAiPrompt: row.openAiPrompt,
    similarityThreshold: row.similarityThreshold,
    chatProvider: row.chatProvider,
    chatModel: row.chatModel,
    topN: row.topN,
    chatMode: row.chatMode,
    pfpFilename: row.pfpFilename,
    agentProvider: row.agentProvider,
    agentModel: row.agentModel,
    queryRefusalResponse: row.queryRefusalResponse,
    vectorSearchMode: row.vectorSearchMode,
    hybridSearch: row.hybridSearch,
    queryRewrite: row.queryRewrite,
  };
}

export function presentWorkspaceDocument(row: WorkspaceDocumentRow): WorkspaceDocument {
  return {
    id: row.id,
    docId: row.docId,
    filename: row.filename,
    docpath: row.docpath,
    workspaceId: row.workspaceId,
    metadata: row.metadata,
    pinned: row.pinned,
    watched: row.watched,
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
  };
}
