import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../components/Dialog.tsx";
import { TextField } from "../../components/TextField.tsx";
import { toast } from "../../lib/toast.ts";
import { renameThread, type Thread } from "./api.ts";
import type { ThreadItem } from "./use_threads.ts";

/**
 * Renaming a thread: the field starts with the full name, selected. An empty name cannot be
 * saved and an unchanged one just closes; a name the server refuses keeps the dialog open with what was typed.
 * Mounted only while open, so each opening starts from the thread's current name.
 */
export function RenameThreadDialog(
  { workspaceSlug, thread, onRenamed, onClose }: {
    workspaceSlug: string;
    thread: ThreadItem;
    onRenamed: (thread: Thread) => void;
    onClose: () => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState(thread.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  // Runs after the Dialog below has opened (a child's effects run first): only a shown field takes focus.
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const wanted = name.trim();
    if (busy || !wanted) return;
    if (wanted === thread.name) {
      onClose();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onRenamed(await renameThread(workspaceSlug, thread.slug, wanted));
    } catch (caught) {
      const message = (caught as Error).message;
      toast.error(t("threads.renameFailed", { message }));
      setError(t("common.errorPrefix", { message }));
      setBusy(false);
    }
  }

  // Whichever button sent it, a refused name is corrected in the field.
  useEffect(() => {
    if (error) input.current?.focus();
  }, [error]);

  return (
    <Dialog open title={t("threads.renamePrompt")} onClose={onClose} dismissible={!busy}>
      <form className="form" onSubmit={submit}>
        <TextField
          ref={input}
          id={`${id}-name`}
          name="name"
          label={t("threads.renameLabel")}
          autoComplete="off"
          readOnly={busy}
          value={name}
          error={error}
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
        />
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="button primary" disabled={busy || !name.trim()}>
            {busy ? t("common.saving") : t("common.save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
