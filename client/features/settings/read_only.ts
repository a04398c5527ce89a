import { createContext } from "react";
import { allows, type Role } from "../../../shared/roles.ts";
import type { SettingsPage } from "../../../shared/routes.ts";

/** True inside a settings page the signed-in user may see but not change: forms show no Save and no inputs. */
export const ReadOnlyContext = createContext(false);

/** Pages whose settings only an admin may save (update-env); a manager sees them read-only. */
export const ADMIN_FORMS: readonly SettingsPage[] = [
  "llm-preference",
  "embedding-preference",
  "vector-database",
];

/** Whether the page must ask who the viewer is: an admin-only form in multi-user mode. */
export function asksViewer(page: SettingsPage, multiUserMode: boolean | undefined): boolean {
  return ADMIN_FORMS.includes(page) && multiUserMode === true;
}

/** Whether the viewer sees the page read-only: a known user who may not manage settings. */
export function readOnlyFor(viewer: { role: Role } | null): boolean {
  return viewer !== null && !allows(viewer.role, "settings:manage");
}
