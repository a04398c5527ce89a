import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "./Dialog.tsx";

type Props = {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy: boolean;
  /** "danger" (the default) for what destroys; "primary" for a change that is wanted but cannot be undone. */
  tone?: "danger" | "primary";
  onConfirm: () => void;
  onClose: () => void;
};

/** Asks before an action that cannot be undone; focus starts on Cancel, the safe choice. */
export function ConfirmDialog(
  { open, title, message, confirmLabel, busy, tone = "danger", onConfirm, onClose }: Props,
) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div className="form">
        <p>{message}</p>
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="button" className={`button ${tone}`} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
