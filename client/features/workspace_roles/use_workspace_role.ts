import { createContext, useContext, useEffect, useState } from "react";
import { WORKSPACE_ROLES, type WorkspaceRole, workspaceRoleReaches } from "../../../shared/roles.ts";
import { api } from "../../lib/api.ts";

/** The role of `GET /api/workspace/:slug/my-role`'s answer, or null when it holds none (no zod: first load). */
export function roleOfAnswer(answer: unknown): WorkspaceRole | null {
  const role = (answer as { role?: unknown } | null)?.role;
  return (WORKSPACE_ROLES as readonly unknown[]).includes(role) ? role as WorkspaceRole : null;
}

/**
 * The visitor's role in a workspace, as the server decides it (admins and managers are owners everywhere):
 * null until it answers, or when it cannot, so that no control shows that the server might refuse.
 */
export function useWorkspaceRole(slug: string | null | undefined): WorkspaceRole | null {
  const [role, setRole] = useState<WorkspaceRole | null>(null);
  useEffect(() => {
    setRole(null);
    if (!slug) return;
    const abort = new AbortController();
    api(`/workspace/${encodeURIComponent(slug)}/my-role`, { signal: abort.signal })
      .then((answer) => setRole(roleOfAnswer(answer)))
      .catch(() => {});
    return () => abort.abort();
  }, [slug]);
  return role;
}

/** The visitor's role in the workspace a screen shows (the settings page provides it to its tabs). */
export const WorkspaceRoleContext = createContext<WorkspaceRole | null>(null);

/** Whether the visitor's role in the current workspace reaches `least`. */
export function useWorkspaceRoleReaches(least: WorkspaceRole): boolean {
  return workspaceRoleReaches(useContext(WorkspaceRoleContext), least);
}

/** The settings tabs a role sees: an editor all but the members, an owner all, a viewer none. */
export function tabsFor<T extends string>(
  tabs: readonly T[],
  role: WorkspaceRole | null,
  membersTab: T,
): T[] {
  if (!workspaceRoleReaches(role, "editor")) return [];
  return role === "owner" ? [...tabs] : tabs.filter((tab) => tab !== membersTab);
}

/**
 * Which documents panel the chat offers (client/features/documents/DocumentsPanel.tsx): the whole manager to
 * whoever may manage the library, an editor's to the workspace's editors and owners, the list to read to a
 * viewer; null until known.
 */
export function documentsModeOf(
  canManageLibrary: boolean | null,
  role: WorkspaceRole | null,
): "manager" | "editor" | "reader" | null {
  if (canManageLibrary === true) return "manager";
  if (canManageLibrary === null || role === null) return null;
  return workspaceRoleReaches(role, "editor") ? "editor" : "reader";
}
