import { type ReactNode, useEffect, useId, useState } from "react";
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
  /** The confirm button stays off until `expected` is typed (workspace deletion protection). */
  typeToConfirm?: { label: string; expected: string };
};

/** Asks before an action that cannot be undone; focus starts on Cancel, the safe choice. */
export function ConfirmDialog(
  { open, title, message, confirmLabel, busy, tone = "danger", onConfirm, onClose, typeToConfirm }: Props,
) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const inputId = useId();
  useEffect(() => setTyped(""), [open]);
  const confirmed = !typeToConfirm || typed.trim() === typeToConfirm.expected.trim();
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div className="form">
        <p>{message}</p>
        {typeToConfirm && (
          <div className="field">
            <label htmlFor={inputId}>{typeToConfirm.label}</label>
            <input
              id={inputId}
              className="input"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              disabled={busy}
              onChange={(event) => setTyped(event.target.value)}
            />
          </div>
        )}
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button
            type="button"
            className={`button ${tone}`}
            onClick={onConfirm}
            disabled={busy || !confirmed}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
