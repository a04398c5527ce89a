import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../shared/routes.ts";
import { Dialog } from "../components/Dialog.tsx";
import { TextField } from "../components/TextField.tsx";
import { api } from "../lib/api.ts";
import { toast } from "../lib/toast.ts";
import { createdWorkspace, workspaceName } from "./workspace_name.ts";
import { lazySchema } from "../lib/lazy_schema.ts";

/** The New Workspace dialog: one name field, placeholder "My Workspace". */
export function NewWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = workspaceName(name);
    if (chosen === null) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api("/workspace/new", {
        json: { name: chosen },
        schema: lazySchema((s) => s.workspaces.CreateWorkspaceAnswer),
      });
      const workspace = createdWorkspace(answer, t("workspace.new.failed"), 400);
      toast.success(t("workspace.new.created"));
      globalThis.location.assign(paths.workspace(workspace.slug));
    } catch (caught) {
      setError((caught as Error).message);
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} title={t("workspace.new.title")} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <TextField
          label={t("workspace.new.nameLabel")}
          name="name"
          autoFocus
          required
          maxLength={255}
          placeholder={t("workspace.new.placeholder")}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        {error && <p className="form-error" role="alert">{t("common.errorPrefix", { message: error })}</p>}
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={onClose}>{t("common.cancel")}</button>
          <button type="submit" className="button primary" disabled={busy || workspaceName(name) === null}>
            {busy ? t("workspace.new.creating") : t("workspace.new.submit")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
