import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../../../../shared/api/auth.ts";
import { UpdateUserInput } from "../../../../shared/api/admin.ts";
import { Dialog } from "../../../components/Dialog.tsx";
import { toast } from "../../../lib/toast.ts";
import { RulePasswordField } from "../RuleFields.tsx";
import { act, messageOf } from "../requests.ts";
import { passwordProblem } from "../validation.ts";
import { displayName } from "./permissions.ts";

/** An admin sets a new password for an account (only an admin can reset passwords). */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={user !== null}
      title={t("users.reset.title", { name: user ? displayName(user) : "" })}
      onClose={onClose}
    >
      {user && <ResetPasswordForm user={user} onClose={onClose} />}
    </Dialog>
  );
}

function ResetPasswordForm({ user, onClose }: { user: User; onClose: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const problem = passwordProblem(password);
  const name = displayName(user);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || problem) return;
    setBusy(true);
    try {
      const input = UpdateUserInput.parse({ password });
      await act(`/admin/user/${user.id}`, { json: input }, t("users.update.refused"));
      toast.success(t("users.reset.done", { name }));
      onClose();
    } catch (caught) {
      toast.error(t("users.reset.failed", { name, error: messageOf(caught) }));
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="muted">{t("users.reset.intro", { name })}</p>
      <RulePasswordField
        id="reset-password"
        label={t("users.reset.password")}
        problem={problem}
        tried={tried}
        autoFocus
        disabled={busy}
        value={password}
        onValue={setPassword}
      />
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("users.reset.busy") : t("users.reset.submit")}
        </button>
      </div>
    </form>
  );
}
