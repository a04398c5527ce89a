import { useTranslation } from "react-i18next";
import type { FolderShell } from "../../../shared/api/library.ts";

/**
 * What can be done with the library's selected documents: add them to the workspace, move them to another
 * folder, delete them, or clear the selection. `busy` names the action under way; every button waits for it.
 */
export function SelectionBar(
  { count, busy, targets, chosenTarget, onMoveTarget, onAdd, onMove, onDelete, onClear }: {
    count: number;
    busy: string | null;
    targets: readonly FolderShell[];
    chosenTarget: string;
    onMoveTarget: (folder: string) => void;
    onAdd: () => void;
    onMove: () => void;
    onDelete: () => void;
    onClear: () => void;
  },
) {
  const { t } = useTranslation();
  return (
    <div className="doc-selection" role="group" aria-label={t("documents.library.selectionLabel")}>
      <span className="doc-selection-count">{t("documents.library.selected", { count })}</span>
      <button type="button" className="button primary small-button" disabled={busy !== null} onClick={onAdd}>
        {busy === "add" ? t("documents.library.adding") : t("documents.library.add")}
      </button>
      <span className="doc-move">
        <select
          className="select small-select"
          aria-label={t("documents.library.moveTo")}
          value={chosenTarget}
          onChange={(event) => onMoveTarget(event.target.value)}
        >
          <option value="">{t("documents.library.moveTo")}</option>
          {targets.map((shell) => <option key={shell.name} value={shell.name}>{shell.name}</option>)}
        </select>
        <button
          type="button"
          className="button secondary small-button"
          disabled={busy !== null || !chosenTarget}
          onClick={onMove}
        >
          {t("documents.library.move")}
        </button>
      </span>
      <button
        type="button"
        className="button secondary small-button danger-text"
        disabled={busy !== null}
        onClick={onDelete}
      >
        {t("documents.library.delete")}
      </button>
      <button type="button" className="link-button small" onClick={onClear}>
        {t("documents.library.clear")}
      </button>
    </div>
  );
}
