import { usePermission } from "./use_permission.ts";

/**
 * Whether the visitor may create and manage workspaces (admin or manager, or anyone without accounts). It is
 * true until the page's auth check says otherwise, as the server renders it; controls that must never show to
 * a default user, not even for a moment, also carry data-requires="adminOrManager" (app.css).
 */
export function useCanManage(): boolean {
  return managesWhile(usePermission("workspace:manage"));
}

/** Managing is shown unless the permission is known to be refused (null: not known yet). */
export function managesWhile(allowed: boolean | null): boolean {
  return allowed !== false;
}
