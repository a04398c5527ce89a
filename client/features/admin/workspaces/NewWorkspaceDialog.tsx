import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Workspace } from "../../../../shared/api/workspaces.ts";
import { Dialog } from "../../../components/Dialog.tsx";
import { TextField } from "../../../components/TextField.tsx";
import { api } from "../../../lib/api.ts";
import { toast } from "../../../lib/toast.ts";
import { messageOf } from "../requests.ts";
import { createdOrThrow, CreatedWorkspace, MAX_WORKSPACE_NAME, nameProblem } from "./workspaces_admin.ts";

type Props = {
  open: boolean;
  path: string;
  multiUser: boolean;
  onClose: () => void;
  onCreated: (workspace: Workspace) => void;
};

/** "New workspace" on the admin screen: a name; the screen stays open and lists it. */
export function NewWorkspaceDialog({ open, path, multiUser, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t("workspacesAdmin.create.title")} onClose={onClose}>
      <NewWorkspaceForm path={path} multiUser={multiUser} onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

function NewWorkspaceForm({ path, multiUser, onClose, onCreated }: Omit<Props, "open">) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problem = checked ? nameProblem(name) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setChecked(true);
    if (nameProblem(name)) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api(path, { json: { name: name.trim() }, schema: CreatedWorkspace });
      const workspace = createdOrThrow(answer, t("workspacesAdmin.create.failed"));
      toast.success(t("workspacesAdmin.create.done", { name: workspace.name }));
      onCreated(workspace);
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <TextField
        label={t("workspacesAdmin.create.name")}
        name="name"
        autoFocus
        autoComplete="off"
        maxLength={MAX_WORKSPACE_NAME}
        placeholder={t("workspacesAdmin.create.placeholder")}
        value={name}
        onChange={(event) => setName(event.target.value)}
        hint={multiUser ? t("workspacesAdmin.create.hint") : undefined}
        error={problem ? t(`workspacesAdmin.create.problems.${problem}`) : undefined}
        disabled={busy}
      />
      {error && <p className="form-error" role="alert">{t("common.errorPrefix", { message: error })}</p>}
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("workspacesAdmin.create.creating") : t("workspacesAdmin.create.submit")}
        </button>
      </div>
    </form>
  );
}
