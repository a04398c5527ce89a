import * as z from "zod";

/**
 * The system prompt of a workspace without one of its own (docs/api-compat.md#workspace-object-and-slugs);
 * `{datetime}` is filled in per chat. Shared so the settings form can show the very text the server sends,
 * not a translation of it.
 */
export const DEFAULT_SYSTEM_PROMPT =
  "Given the following conversation, relevant context, and a follow up question, reply with an answer to the current question the user is asking. The current date and time is {datetime}. Return only your response to the question given the above information following the users instructions as needed.";

/** The query-mode answer when no document context is found, for a workspace without its own. */
export const DEFAULT_REFUSAL = "There is no relevant information in this workspace to answer your query.";

/** A workspace row as `GET /api/workspaces` and `POST /api/workspace/new` return it. */
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
  /** Vector search fused with full-text search (on by default). */
  hybridSearch: z.boolean(),
  /** A follow-up question is searched as rewritten with the conversation (on by default). */
  queryRewrite: z.boolean(),
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
  name: z.string({ error: "name cannot be null" }).trim().min(1, "name cannot be null")
    .max(255, "Workspace name must be at most 255 characters."),
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

const numberLike = (label: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))
      ? Number(value)
      : value),
    z.number({ error: `${label} must be a number.` }),
  );
const blankToNull = (value: unknown) => (value === "" || value === undefined ? null : value);
/** Text of only spaces says nothing either: stored as null, so the default applies instead of a blank prompt. */
const blankTextToNull = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? null : blankToNull(value);
const optionalText = (label: string, max: number) =>
  z.preprocess(blankTextToNull, z.string({ error: `${label} must be text.` }).max(max).nullable());

/**
 * `POST /api/workspace/:slug/update`: the writable fields of docs/api-compat.md#workspace-object-and-slugs.
 * Numbers may come as text (forms send them so); a value out of range is a 400 naming the field, never
 * silently replaced.
 */
export const UpdateWorkspaceInput = z.object({
  name: z.string({ error: "Workspace name must be text." }).trim().min(1, "Workspace name cannot be empty.")
    .max(255, "Workspace name must be at most 255 characters."),
  openAiTemp: z.preprocess(
    blankToNull,
    numberLike("Temperature").pipe(
      z.number().min(0, "Temperature cannot be negative.").max(2, "Temperature must be at most 2."),
    )
      .nullable(),
  ),
  openAiHistory: numberLike("Chat history").pipe(
    z.number().int("Chat history must be a whole number.").min(0, "Chat history cannot be negative.")
      .max(1000, "Chat history must be at most 1000."),
  ),
  similarityThreshold: numberLike("Similarity threshold").pipe(
    z.number().min(0, "Similarity threshold must be between 0 and 1.").max(
      1,
      "Similarity threshold must be between 0 and 1.",
    ),
  ),
  topN: numberLike("Max context snippets").pipe(
    z.number().int("Max context snippets must be a whole number.").min(
      1,
      "Max context snippets must be at least 1.",
    )
      .max(200, "Max context snippets must be at most 200."),
  ),
  chatMode: z.enum(["chat", "query", "automatic"], { error: "Chat mode must be chat or query." })
    .transform((mode) => (mode === "automatic" ? "chat" : mode)),
  chatProvider: optionalText("Chat provider", 64),
  chatModel: optionalText("Chat model", 255),
  agentProvider: optionalText("Agent provider", 64),
  agentModel: optionalText("Agent model", 255),
  openAiPrompt: optionalText("Prompt", 20_000),
  queryRefusalResponse: optionalText("Refusal response", 5_000),
  vectorSearchMode: z.enum(["default", "rerank"], { error: "Search mode must be default or rerank." }),
  hybridSearch: z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ error: "Hybrid search must be true or false." }),
  ),
  queryRewrite: z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ error: "Follow-up question rewriting must be true or false." }),
  ),
}).partial();
export type UpdateWorkspaceInput = z.infer<typeof UpdateWorkspaceInput>;

export const SuggestedMessage = z.object({
  heading: z.string().trim().max(200),
  message: z.string().trim().min(1, "A suggested message cannot be empty.").max(2000),
});
export const SuggestedMessagesInput = z.object({
  messages: z.array(SuggestedMessage, { error: "messages must be a list of {heading, message}." }).max(20),
});
export const SuggestedMessagesAnswer = z.object({
  success: z.boolean(),
  suggestedMessages: z.array(SuggestedMessage),
});
