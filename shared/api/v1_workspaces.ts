import * as z from "zod";
import { UpdatePinInput } from "./library.ts";
import { CreateWorkspaceInput, UpdateWorkspaceInput, Workspace, WorkspaceDocument } from "./workspaces.ts";

/**
 * The developer API's workspace and thread calls (`/api/v1/workspace…`, api-contract.md §11): the reference's
 * request and answer shapes. Each message names its field (bodies are read with `bareMessages`).
 */

/** `POST /v1/workspace/new`: `name` and any writable field of a workspace; other fields are ignored. */
export const V1CreateWorkspaceInput = UpdateWorkspaceInput.extend({ name: CreateWorkspaceInput.shape.name });
export type V1CreateWorkspaceInput = z.infer<typeof V1CreateWorkspaceInput>;

export const V1WorkspaceAnswer = z.object({
  /** `{id}` alone when an update held no writable field ("No valid fields to update!"). */
  workspace: z.union([Workspace, z.object({ id: z.number() })]).nullable(),
  message: z.string().nullable(),
});

/** A thread as the workspace listings show it. */
export const V1ThreadRef = z.object({ user_id: z.number().nullable(), slug: z.string(), name: z.string() });

export const V1WorkspaceList = z.object({
  workspaces: z.array(Workspace.extend({ threads: z.array(V1ThreadRef) })),
});

/** `GET /v1/workspace/:slug`: a list, as the reference answers it (empty for an unknown slug). */
export const V1WorkspaceGet = z.object({
  workspace: z.array(Workspace.extend({
    documents: z.array(WorkspaceDocument),
    threads: z.array(V1ThreadRef.omit({ name: true })),
  })),
});

/** `GET /v1/workspace/:slug/chats`'s query. */
export const V1ChatsQuery = z.object({
  apiSessionId: z.string().optional(),
  limit: z.string().optional().transform((value, context) => {
    if (value === undefined || value.trim() === "") return 100;
    const limit = Number(value);
    if (!Number.isInteger(limit)) {
      context.addIssue({ code: "custom", message: "limit must be a whole number of chats." });
      return z.NEVER;
    }
    return Math.max(1, limit);
  }),
  orderBy: z.string().optional().transform((value) => (value === "desc" ? "desc" as const : "asc" as const)),
});

/** `pinStatus` may be left out, as in the reference: it then unpins. */
export const V1UpdatePinInput = UpdatePinInput.extend({
  pinStatus: UpdatePinInput.shape.pinStatus.default(false),
});
export const V1UpdatePinAnswer = z.object({ message: z.string() });

/** A number, or a number written as text. */
const numeric = (field: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
    z.number({ error: `${field} must be a number.` }).refine(Number.isFinite, `${field} must be a number.`),
  );

export const V1VectorSearchInput = z.object({
  query: z.string({ error: "Query parameter cannot be empty." }).trim().min(
    1,
    "Query parameter cannot be empty.",
  )
    .max(20_000, "query must be at most 20000 characters."),
  topN: numeric("topN").pipe(
    z.number().int("topN must be a whole number.").min(1, "topN must be at least 1.").max(
      200,
      "topN must be at most 200.",
    ),
  ).nullish(),
  scoreThreshold: numeric("scoreThreshold").pipe(
    z.number().min(0, "scoreThreshold must be between 0 and 1.").max(
      1,
      "scoreThreshold must be between 0 and 1.",
    ),
  ).nullish(),
});

export const V1VectorSearchResult = z.object({
  id: z.string(),
  text: z.string(),
  metadata: z.object({
    url: z.unknown(),
    title: z.unknown(),
    author: z.unknown(),
    description: z.unknown(),
    docSource: z.unknown(),
    chunkSource: z.unknown(),
    published: z.unknown(),
    wordCount: z.unknown(),
    tokenCount: z.unknown(),
  }),
  /** Cosine distance: 1 − score. */
  distance: z.number(),
  score: z.number(),
});
export const V1VectorSearchAnswer = z.object({
  results: z.array(V1VectorSearchResult),
  /** Only when the workspace has no embeddings. */
  message: z.string().optional(),
});

/** A thread row as the thread calls answer it. */
export const V1Thread = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  workspace_id: z.number(),
  user_id: z.number().nullable(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
});

const USER_ID_ERROR = "userId must be the id of a user.";

/** `POST /v1/workspace/:slug/thread/new`. */
export const V1NewThreadInput = z.object({
  userId: z.preprocess(
    (value) => (typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value),
    z.number({ error: USER_ID_ERROR }).int(USER_ID_ERROR).positive(USER_ID_ERROR),
  ).nullish(),
  name: z.string({ error: "name must be text." }).trim().max(255, "name must be at most 255 characters.")
    .nullish(),
  slug: z.string({ error: "slug must be text." }).trim().max(255, "slug must be at most 255 characters.")
    .nullish(),
});

export const V1ThreadAnswer = z.object({ thread: V1Thread.nullable(), message: z.string().nullable() });
