import * as z from "zod";
import { Workspace } from "../../../../shared/api/workspaces.ts";
import { paths } from "../../../../shared/routes.ts";

/** A workspace of the admin list: `userIds` comes with the admin call (multi-user mode) only. */
export const AdminWorkspace = Workspace.extend({ userIds: z.array(z.number()).optional() });
export type AdminWorkspace = z.infer<typeof AdminWorkspace>;
export const AdminWorkspaceList = z.object({ workspaces: z.array(AdminWorkspace) });

/** `POST /api/admin/workspaces/new` answers `{workspace, error}`; `POST /api/workspace/new` `{workspace, message}`. */
export const CreatedWorkspace = z.object({
  workspace: Workspace.nullable(),
  error: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});

/**
 * The calls the screen makes. In multi-user mode, the admin calls (every workspace, with its members); on a
 * single-user instance they answer 403 ("Multi-user mode is not enabled."), and the screen uses the ordinary
 * workspace calls, which there reach every workspace too.
 */
export function workspaceCalls(multiUser: boolean) {
  return multiUser
    ? {
      list: "/admin/workspaces",
      create: "/admin/workspaces/new",
      remove: (workspace: Pick<AdminWorkspace, "id" | "slug">) => `/admin/workspaces/${workspace.id}`,
    }
    : {
      list: "/workspaces",
      create: "/workspace/new",
      remove: (workspace: Pick<AdminWorkspace, "id" | "slug">) =>
        `/workspace/${encodeURIComponent(workspace.slug)}`,
    };
}

/** How many people a workspace has; null where the instance has no accounts (single-user mode). */
export function memberCount(workspace: AdminWorkspace, multiUser: boolean): number | null {
  return multiUser ? workspace.userIds?.length ?? 0 : null;
}

/** Where a row's links go: the workspace's chat, and its members tab (where they are edited). */
export function workspaceLinks(workspace: Pick<AdminWorkspace, "slug">) {
  return {
    open: paths.workspace(workspace.slug),
    members: paths.workspaceSettings(workspace.slug, "members"),
  };
}

/** The most characters a workspace name may have (shared/api/workspaces.ts CreateWorkspaceInput). */
export const MAX_WORKSPACE_NAME = 255;

/** What is wrong with a typed name, if anything: blank, or longer than the server takes. */
export function nameProblem(typed: string): "empty" | "tooLong" | null {
  const name = typed.trim();
  if (name === "") return "empty";
  return name.length > MAX_WORKSPACE_NAME ? "tooLong" : null;
}

/** The workspace a create call made; without one, the server's sentence (or `fallback`) as an Error. */
export function createdOrThrow(answer: z.infer<typeof CreatedWorkspace>, fallback: string) {
  if (answer.workspace) return answer.workspace;
  throw new Error(answer.error || answer.message || fallback);
}

/** The list after a workspace is gone (the screen shows it at once, then reloads from the server). */
export function without(list: readonly AdminWorkspace[], id: number): AdminWorkspace[] {
  return list.filter((workspace) => workspace.id !== id);
}
