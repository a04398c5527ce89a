import type { Workspace, WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import type { WorkspaceChanges } from "./api.ts";

/** What every editable tab gets: the workspace as loaded, and a save that updates the page's copy. */
export type TabProps = {
  workspace: WorkspaceDetail;
  /** `POST /workspace/:slug/update`; resolves with the stored row (null: nothing changed), throws on refusal. */
  save: (changes: WorkspaceChanges) => Promise<Workspace | null>;
  /** The LLM providers the instance has set up; null while unknown or not readable by the caller. */
  configuredProviders?: readonly string[] | null;
};

/** A text field's value: blank (only spaces) is sent as null, so the server's default applies. */
export const orNull = (value: string): string | null => (value.trim() === "" ? null : value);
