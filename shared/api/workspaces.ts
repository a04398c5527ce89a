import { z } from "zod";

export const CHAT_MODES = ["chat", "query"] as const;

/** A workspace row as `GET /api/workspaces` and `POST /api/workspace/new` return it (api-contract.md §5.1). */
export const Workspace = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  vectorTag: z.string().nullable(),
  createdAt: z.string(),
  openAiTemp: z.number().nullable(),
  openAiHistory: z.number(),
  lastUpdatedAt: z.string(),
  openAiPrompt: z.string().nullable(),
  similarityThreshold: z.number(),
  chatProvider: z.string().nullable(),
  chatModel: z.string().nullable(),
  topN: z.number(),
  chatMode: z.string(),
  pfpFilename: z.string().nullable(),
  agentProvider: z.string().nullable(),
  agentModel: z.string().nullable(),
  queryRefusalResponse: z.string().nullable(),
  vectorSearchMode: z.string(),
});
export type Workspace = z.infer<typeof Workspace>;

/** A document embedded in a workspace (`workspace_documents` row). */
export const WorkspaceDocument = z.object({
  id: z.number(),
  docId: z.string(),
  filename: z.string(),
  docpath: z.string(),
  workspaceId: z.number(),
  metadata: z.string().nullable(),
  pinned: z.boolean(),
  watched: z.boolean(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
});
export type WorkspaceDocument = z.infer<typeof WorkspaceDocument>;

/** `GET /api/workspace/:slug` adds the documents and the context window figures. */
export const WorkspaceDetail = Workspace.extend({
  documents: z.array(WorkspaceDocument),
  contextWindow: z.number().nullable(),
  currentContextTokenCount: z.number(),
});
export type WorkspaceDetail = z.infer<typeof WorkspaceDetail>;

export const CreateWorkspaceInput = z.object({
  name: z.string({ error: "name cannot be null" }).trim().min(1, "name cannot be null").max(255),
  onboardingComplete: z.boolean().optional(),
});

export const WorkspaceList = z.object({ workspaces: z.array(Workspace) });
export const WorkspaceAnswer = z.object({ workspace: WorkspaceDetail.nullable() });
export const CreateWorkspaceAnswer = z.object({
  workspace: Workspace.nullable(),
  message: z.string().nullable(),
});

export const UpdateEmbeddingsInput = z.object({
  adds: z.array(z.string().min(1)).max(1000).default([]),
  deletes: z.array(z.string().min(1)).max(1000).default([]),
});
export const UpdateEmbeddingsAnswer = z.object({
  workspace: WorkspaceDetail.nullable(),
  message: z.string().nullable(),
});
