import type { FormEvent, ReactNode } from "react";
import { useContext, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast.ts";
import { ReadOnlyContext } from "./read_only.ts";

type Props = {
  /** The id the onboarding shell's forward arrow submits; the settings pages show their own Save button. */
  formId: string;
  showActions: boolean;
  /** Saves and resolves with nothing; a thrown error's message goes into `failureKey`. */
  save: () => Promise<void>;
  /** The success toast; the onboarding wizard moves on instead. */
  successKey?: string;
  failureKey: string;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
  disabled?: boolean;
  children: ReactNode;
};

/**
 * A settings form: saves on submit, toasts the outcome and keeps the server's problems under the fields.
 * Inside a read-only page (ReadOnlyContext) every input is disabled and there is no Save.
 */
export function SettingsForm(
  { formId, showActions, save, successKey, failureKey, onSaved, onBusyChange, disabled, children }: Props,
) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const readOnly = useContext(ReadOnlyContext);

  const setBusyState = (value: boolean) => {
    setBusy(value);
    onBusyChange?.(value);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || disabled || readOnly) return;
    setBusyState(true);
    setError(null);
    try {
      await save();
      if (successKey) toast.success(t(successKey));
      setBusyState(false);
      onSaved?.();
    } catch (caught) {
      const message = (caught as Error).message;
      toast.error(t(failureKey, { error: message }));
      setError(message);
      setBusyState(false);
    }
  }

  return (
    <form id={formId} className="form settings-form" onSubmit={submit}>
      {readOnly ? <fieldset className="settings-read-only" disabled>{children}</fieldset> : children}
      {error && <p className="form-error" role="alert">{t(failureKey, { error })}</p>}
      {showActions && !readOnly && (
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy || disabled}>
            {busy ? t("common.saving") : t("common.save")}
          </button>
        </div>
      )}
    </form>
  );
}
