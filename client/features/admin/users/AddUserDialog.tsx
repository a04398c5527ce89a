import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../../../../shared/api/auth.ts";
import { NewUserAnswer, NewUserInput } from "../../../../shared/api/admin.ts";
import type { Role } from "../../../../shared/roles.ts";
import { Dialog } from "../../../components/Dialog.tsx";
import { api, ApiError } from "../../../lib/api.ts";
import { toast } from "../../../lib/toast.ts";
import { RulePasswordField, RuleUsernameField } from "../RuleFields.tsx";
import { messageOf } from "../requests.ts";
import { passwordProblem, usernameProblem } from "../validation.ts";
import { assignableRoles } from "./permissions.ts";

type Props = { open: boolean; me: User; onClose: () => void; onAdded: () => void };

/** "Add user": username, password and role; a manager is not offered the admin role. */
export function AddUserDialog({ open, me, onClose, onAdded }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t("users.add.title")} onClose={onClose}>
      <AddUserForm me={me} onClose={onClose} onAdded={onAdded} />
    </Dialog>
  );
}

function AddUserForm({ me, onClose, onAdded }: Omit<Props, "open">) {
  const { t } = useTranslation();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<Role>("default");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const usernameError = usernameProblem(username.trim());
  const passwordError = passwordProblem(password);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || usernameError || passwordError) return;
    setBusy(true);
    try {
      const input = NewUserInput.parse({ username, password, role });
      const answer = await api("/admin/users/new", { json: input, schema: NewUserAnswer });
      if (!answer.user) throw new ApiError(answer.error ?? t("users.add.refused"), 200, answer);
      toast.success(t("users.add.done", { name: answer.user.username ?? input.username }));
      onAdded();
    } catch (caught) {
      toast.error(t("users.add.failed", { error: messageOf(caught) }));
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <RuleUsernameField
        id="new-user-username"
        label={t("users.fields.username")}
        problem={usernameError}
        tried={tried}
        autoComplete="off"
        autoFocus
        disabled={busy}
        value={username}
        onValue={setUsername}
      />
      <RulePasswordField
        id="new-user-password"
        label={t("users.fields.password")}
        problem={passwordError}
        tried={tried}
        disabled={busy}
        value={password}
        onValue={setPassword}
      />
      <div className="field">
        <label className="field-label" htmlFor="new-user-role">{t("users.fields.role")}</label>
        <select
          id="new-user-role"
          className="select"
          value={role}
          disabled={busy}
          onChange={(event) => setRole(event.target.value as Role)}
        >
          {assignableRoles(me).map((option) => (
            <option key={option} value={option}>{t(`users.roles.${option}`)}</option>
          ))}
        </select>
        <span className="field-hint">{t(`users.roleHints.${role}`)}</span>
      </div>
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("users.add.busy") : t("users.add.submit")}
        </button>
      </div>
    </form>
  );
}
