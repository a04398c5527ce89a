import type * as z from "zod";
import type { CreateWorkspaceAnswer as Answer, Workspace } from "../../shared/api/workspaces.ts";
import { ApiError } from "../lib/api.ts";

type CreateWorkspaceAnswer = z.infer<typeof Answer>;

/** The name a new workspace is created with: the typed name trimmed; null while it is blank (nothing to send). */
export function workspaceName(typed: string): string | null {
  const name = typed.trim();
  return name === "" ? null : name;
}

/**
 * The workspace a create answer made; without one it throws an ApiError (`status`) with the server's message,
 * else `fallback`.
 */
export function createdWorkspace(
  answer: CreateWorkspaceAnswer,
  fallback: string,
  status: number,
): Workspace {
  if (!answer.workspace) throw new ApiError(answer.message ?? fallback, status, answer);
  return answer.workspace;
}
