import * as z from "zod";
import { SuccessAnswer } from "../../../shared/api/auth.ts";
import { SuggestedMessagesAnswer, Workspace } from "../../../shared/api/workspaces.ts";
import { api, apiBlob, ApiError } from "../../lib/api.ts";

/** The fields a settings form sends to `POST /workspace/:slug/update`; numbers may go as text. */
export type WorkspaceChanges = Record<string, string | number | null>;

export type SuggestedMessage = { heading: string; message: string };

/** The upload rules of the assistant picture (the server checks them too). */
export const PICTURE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
/** The server keeps at most this many suggested messages. */
export const MAX_SUGGESTED_MESSAGES = 20;

const UpdateAnswer = z.object({
  workspace: z.looseObject({ id: z.number() }).nullable(),
  message: z.string().nullable(),
});

const base = (slug: string) => `/workspace/${encodeURIComponent(slug)}`;

/**
 * Saves workspace settings. Resolves with the stored row, or null when the server found nothing to change;
 * a refusal throws an ApiError with the server's message (it names the field).
 */
export async function updateWorkspace(slug: string, changes: WorkspaceChanges): Promise<Workspace | null> {
  const answer = await api(`${base(slug)}/update`, { json: changes, schema: UpdateAnswer });
  if (!answer.workspace) throw new ApiError(answer.message ?? "The workspace was not saved.", 200, answer);
  const row = Workspace.safeParse(answer.workspace);
  return row.success ? row.data : null;
}

/** Reads a `{success, error}` answer and throws with the server's error, else `fallback`. */
async function succeed(call: Promise<z.infer<typeof SuccessAnswer>>, fallback: string): Promise<void> {
  const answer = await call;
  if (!answer.success) throw new ApiError(answer.error || fallback, 200, answer);
}

/** Deletes a workspace; `confirm` is its name, which the server asks for while deletion protection is on. */
export function deleteWorkspace(slug: string, fallback: string, confirm?: string): Promise<void> {
  const path = confirm === undefined ? base(slug) : `${base(slug)}?confirm=${encodeURIComponent(confirm)}`;
  return succeed(api(path, { method: "DELETE", schema: SuccessAnswer }), fallback);
}

export function resetVectorDatabase(slug: string, fallback: string): Promise<void> {
  return succeed(api(`${base(slug)}/reset-vector-db`, { method: "DELETE", schema: SuccessAnswer }), fallback);
}

export async function fetchVectorCount(slug: string, signal?: AbortSignal): Promise<number> {
  const answer = await api(`/system/system-vectors?slug=${encodeURIComponent(slug)}`, {
    schema: z.object({ vectorCount: z.number() }),
    signal,
  });
  return answer.vectorCount;
}

export async function fetchSuggestedMessages(
  slug: string,
  signal?: AbortSignal,
): Promise<SuggestedMessage[]> {
  const answer = await api(`${base(slug)}/suggested-messages`, { schema: SuggestedMessagesAnswer, signal });
  return answer.suggestedMessages;
}

/** Replaces every suggested message of the workspace. */
export async function saveSuggestedMessages(slug: string, messages: SuggestedMessage[], fallback: string) {
  const answer = await api(`${base(slug)}/suggested-messages`, {
    json: { messages },
    schema: z.looseObject({ success: z.boolean(), message: z.string().nullable().optional() }),
  });
  if (!answer.success) throw new ApiError(answer.message || fallback, 200, answer);
}

/** The assistant picture, or null when the workspace has none (204). */
export function fetchPicture(slug: string, signal?: AbortSignal): Promise<Blob | null> {
  return apiBlob(`${base(slug)}/pfp`, { signal });
}

export function uploadPicture(slug: string, file: File, fallback: string): Promise<void> {
  const form = new FormData();
  form.append("file", file);
  return succeed(api(`${base(slug)}/upload-pfp`, { form, schema: SuccessAnswer }), fallback);
}

export function removePicture(slug: string, fallback: string): Promise<void> {
  return succeed(api(`${base(slug)}/remove-pfp`, { method: "DELETE", schema: SuccessAnswer }), fallback);
}

const PromptHistoryAnswer = z.object({
  history: z.array(z.object({
    id: z.number(),
    prompt: z.string(),
    modifiedAt: z.string(),
    user: z.object({ username: z.string() }).nullable(),
  })),
});
export type PromptHistoryEntry = z.infer<typeof PromptHistoryAnswer>["history"][number];

/** The prompts the workspace had before, newest first. */
export async function fetchPromptHistory(slug: string, signal?: AbortSignal): Promise<PromptHistoryEntry[]> {
  const answer = await api(`${base(slug)}/prompt-history`, { schema: PromptHistoryAnswer, signal });
  return answer.history;
}

export function deletePromptHistoryEntry(id: number, fallback: string): Promise<void> {
  return succeed(
    api(`/workspace/prompt-history/${id}`, { method: "DELETE", schema: SuccessAnswer }),
    fallback,
  );
}

export function clearPromptHistory(slug: string, fallback: string): Promise<void> {
  return succeed(api(`${base(slug)}/prompt-history`, { method: "DELETE", schema: SuccessAnswer }), fallback);
}

const DefaultPromptAnswer = z.object({
  defaultSystemPrompt: z.string(),
  saneDefaultSystemPrompt: z.string(),
});

/** The instance's default system prompt, which workspaces without their own use, and the built-in one. */
export function fetchDefaultPrompt(signal?: AbortSignal): Promise<z.infer<typeof DefaultPromptAnswer>> {
  return api("/system/default-system-prompt", { schema: DefaultPromptAnswer, signal });
}
