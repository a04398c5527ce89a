import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../components/Dialog.tsx";
import { TextField } from "../../components/TextField.tsx";
import type { Confirm } from "./library.ts";

/** Asks before the selected documents, or a folder with its documents, are deleted. */
export function ConfirmDeleteDialog(
  { confirm, onClose, onConfirm }: { confirm: Confirm; onClose: () => void; onConfirm: () => void },
) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={confirm !== null}
      title={confirm?.kind === "folder"
        ? t("documents.folders.confirmTitle", { name: confirm.name })
        : t("documents.library.confirmTitle", { count: confirm?.count ?? 0 })}
      onClose={onClose}
    >
      <p>
        {confirm?.kind === "folder" ? t("documents.folders.confirmBody") : t("documents.library.confirmBody")}
      </p>
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button type="button" className="button danger" onClick={onConfirm}>
          {t("documents.library.confirmDelete")}
        </button>
      </div>
    </Dialog>
  );
}

/** A new folder's name being typed, with the server's refusal of the last one tried. */
export type NewFolder = { name: string; error: string | null } | null;

/** Names a new folder; the server's refusal shows under the field. */
export function NewFolderDialog(
  { value, creating, onChange, onSubmit }: {
    value: NewFolder;
    creating: boolean;
    onChange: (value: NewFolder) => void;
    onSubmit: (event: FormEvent) => void;
  },
) {
  const { t } = useTranslation();
  return (
    <Dialog open={value !== null} title={t("documents.folders.newTitle")} onClose={() => onChange(null)}>
      <form className="form" onSubmit={onSubmit}>
        <TextField
          id="new-folder-name"
          label={t("documents.folders.name")}
          hint={t("documents.folders.nameHint")}
          error={value?.error ?? undefined}
          value={value?.name ?? ""}
          maxLength={64}
          required
          autoFocus
          onChange={(event) => onChange({ name: event.target.value, error: null })}
        />
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={() => onChange(null)}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="button primary" disabled={creating || !value?.name.trim()}>
            {t("documents.folders.create")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
