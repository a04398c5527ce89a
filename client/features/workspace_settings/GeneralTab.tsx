import { useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";
import { TextField } from "../../components/TextField.tsx";
import { toast } from "../../lib/toast.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { deleteWorkspace } from "./api.ts";
import { useSetup } from "../settings/setup.ts";
import { usePermission } from "../auth/use_permission.ts";
import { useWorkspaceRoleReaches } from "../workspace_roles/use_workspace_role.ts";
import { AssistantPicture } from "./AssistantPicture.tsx";
import { SuggestedMessagesEditor } from "./SuggestedMessagesEditor.tsx";
import type { TabProps } from "./types.ts";
import { WorkspaceForm } from "./WorkspaceForm.tsx";

/** The wait between a success toast and going home. */
const REDIRECT_DELAY_MS = 1000;

/** The general-appearance tab: name, suggested messages, assistant picture, and deleting the workspace. */
export function GeneralTab({ workspace, save }: TabProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(workspace.name);

  async function submit() {
    const row = await save({ name: name.trim() });
    if (row) setName(row.name);
  }

  return (
    <>
      <WorkspaceForm
        id="ws-general"
        title={t("workspaceSettings.general.title")}
        save={submit}
      >
        <TextField
          id="ws-general-name"
          name="name"
          label={t("workspaceSettings.general.name")}
          hint={t("workspaceSettings.general.nameHint", { path: paths.workspace(workspace.slug) })}
          maxLength={255}
          placeholder={t("workspaceSettings.general.namePlaceholder")}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </WorkspaceForm>
      <SuggestedMessagesEditor slug={workspace.slug} />
      <AssistantPicture slug={workspace.slug} name={workspace.name} />
      <DeleteWorkspace slug={workspace.slug} name={workspace.name} />
    </>
  );
}

/** Deleting the workspace, for every user, after a confirmation naming it; then home. */
function DeleteWorkspace({ slug, name }: { slug: string; name: string }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`workspaceSettings.delete.${key}`, { name });
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const { setup } = useSetup();
  const isAdmin = usePermission("settings:manage");
  // The workspace's owners delete it (admins and managers are owners of every workspace)...
  const isOwner = useWorkspaceRoleReaches("owner");
  // ...but with deletion protection on (WORKSPACE_DELETION_PROTECTION) only admins, after typing the name.
  const protection = setup?.WorkspaceDeletionProtection === true;
  if (!setup || isAdmin === null || !isOwner || (protection && !isAdmin)) return null;

  async function remove() {
    setBusy(true);
    try {
      await deleteWorkspace(slug, k("refused"), protection ? name : undefined);
      toast.success(k("deleted"));
      setTimeout(() => globalThis.location.assign(paths.home()), REDIRECT_DELAY_MS);
    } catch (caught) {
      toast.error(t("workspaceSettings.delete.failed", { name, error: (caught as Error).message }));
      setBusy(false);
    }
  }

  return (
    <section className="card ws-section ws-danger" aria-labelledby="ws-delete-title">
      <h2 id="ws-delete-title" className="ws-section-title">{k("title")}</h2>
      <p className="muted ws-section-description">{k("description")}</p>
      <div className="form-actions start">
        <button type="button" className="button danger" onClick={() => setConfirming(true)} disabled={busy}>
          {k("button")}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={k("confirmTitle")}
        message={k("confirm")}
        confirmLabel={busy ? k("deleting") : k("button")}
        busy={busy}
        onConfirm={remove}
        onClose={() => !busy && setConfirming(false)}
        typeToConfirm={protection
          ? { label: t("workspaceSettings.delete.typeName", { name }), expected: name }
          : undefined}
      />
    </section>
  );
}
