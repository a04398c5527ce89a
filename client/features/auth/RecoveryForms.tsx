import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  RecoverAccountAnswer,
  RECOVERY_CODES_NEEDED,
  ResetPasswordAnswer,
} from "../../../shared/api/auth.ts";
import { PasswordField } from "../../components/PasswordField.tsx";
import { TextField } from "../../components/TextField.tsx";
import { UsernameField } from "../../components/UsernameField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { resetToken } from "../../lib/auth.ts";
import { toast } from "../../lib/toast.ts";
import { codesToSend, serverMessage } from "./recovery.ts";

/** Shows a failure under the form and as an error toast. */
function useFailure() {
  const [error, setError] = useState<string | null>(null);
  const fail = (message: string) => {
    setError(message);
    toast.error(message);
  };
  return { error, setError, fail };
}

/** Forgot password, step 1: username and two recovery codes, all required. */
export function RecoveryForm({ onRecovered, onBack }: { onRecovered: () => void; onBack: () => void }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState("");
  const [codes, setCodes] = useState<string[]>(Array(RECOVERY_CODES_NEEDED).fill(""));
  const [busy, setBusy] = useState(false);
  const { error, setError, fail } = useFailure();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const recoveryCodes = codesToSend(codes);
      const answer = await api("/system/recover-account", {
        json: { username: username.trim(), recoveryCodes },
        schema: RecoverAccountAnswer,
      });
      if (!answer.success || !answer.resetToken) {
        throw new ApiError(answer.message || answer.error || t("login.recovery.failed"), 200, answer);
      }
      resetToken.store(answer.resetToken);
      onRecovered();
    } catch (caught) {
      fail(serverMessage(caught) || t("login.recovery.failed"));
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit}>
      <p className="muted">{t("login.recovery.intro")}</p>
      <UsernameField
        label={t("login.username")}
        autoFocus
        disabled={busy}
        value={username}
        onValue={setUsername}
      />
      {codes.map((code, index) => (
        <TextField
          key={index}
          label={t("login.recovery.code", { number: index + 1 })}
          name={`recoveryCode${index + 1}`}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
          disabled={busy}
          value={code}
          onChange={(event) => setCodes(codes.map((old, at) => (at === index ? event.target.value : old)))}
        />
      ))}
      {error && <p className="form-error" role="alert">{error}</p>}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? t("login.recovery.submitting") : t("login.recovery.submit")}
      </button>
      <button type="button" className="link-button" onClick={onBack}>{t("login.backToLogin")}</button>
    </form>
  );
}

/** Forgot password, step 2: new and confirmed password; the server compares them. */
export function ResetForm({ onDone, onBack }: { onDone: () => void; onBack: () => void }) {
  const { t } = useTranslation();
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const { error, setError, fail } = useFailure();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const token = resetToken.read();
    if (!token) return fail(t("login.reset.invalidToken"));
    setBusy(true);
    setError(null);
    try {
      const answer = await api("/system/reset-password", {
        json: { token, newPassword, confirmPassword },
        schema: ResetPasswordAnswer,
      });
      if (!answer.success) {
        throw new ApiError(answer.message || answer.error || t("login.reset.failed"), 200, answer);
      }
      resetToken.clear();
      toast.success(t("login.reset.success"));
      onDone();
    } catch (caught) {
      fail(serverMessage(caught) || t("login.reset.failed"));
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit}>
      <p className="muted">{t("login.reset.intro")}</p>
      <PasswordField
        label={t("login.reset.newPassword")}
        name="newPassword"
        autoFocus
        disabled={busy}
        value={newPassword}
        onValue={setNewPassword}
      />
      <PasswordField
        label={t("login.reset.confirmPassword")}
        name="confirmPassword"
        disabled={busy}
        value={confirmPassword}
        onValue={setConfirmPassword}
      />
      {error && <p className="form-error" role="alert">{error}</p>}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? t("login.reset.submitting") : t("login.reset.submit")}
      </button>
      <button type="button" className="link-button" onClick={onBack}>{t("login.backToLogin")}</button>
    </form>
  );
}
