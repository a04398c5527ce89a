import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast.ts";

type Props = {
  id: string;
  title: string;
  description?: ReactNode;
  /** Saves; a thrown error's message (the server's, naming the field) is toasted and kept under the form. */
  save: () => Promise<void>;
  /** The success toast; "Workspace settings saved." unless given. */
  savedMessage?: string;
  /** The label of the Save button. */
  saveLabel?: string;
  /** False keeps Save disabled (nothing changed). */
  canSave?: boolean;
  children: ReactNode;
};

/**
 * One section of a workspace settings tab: a card with a heading and a form that saves on submit. The server
 * checks the values (noValidate), so a problem always comes back as its own message naming the field.
 */
export function WorkspaceForm(
  { id, title, description, save, savedMessage, saveLabel, canSave = true, children }: Props,
) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !canSave) return;
    setBusy(true);
    setError(null);
    try {
      await save();
      toast.success(savedMessage ?? t("workspaceSettings.saved"));
    } catch (caught) {
      const message = caught instanceof Error ? caught.message : String(caught);
      toast.error(t("workspaceSettings.saveFailed", { error: message }));
      setError(message);
    }
    setBusy(false);
  }

  return (
    <section className="card ws-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="ws-section-title">{title}</h2>
      {description && <p className="muted ws-section-description">{description}</p>}
      <form id={id} className="form" onSubmit={submit} noValidate>
        {children}
        {error && <p className="form-error" role="alert">{t("workspaceSettings.saveFailed", { error })}</p>}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy || !canSave}>
            {busy ? t("common.saving") : saveLabel ?? t("common.save")}
          </button>
        </div>
      </form>
    </section>
  );
}
