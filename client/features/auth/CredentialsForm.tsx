import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordField } from "../../components/PasswordField.tsx";
import { UsernameField } from "../../components/UsernameField.tsx";
import { api } from "../../lib/api.ts";
import { formLogin, loginCredentials, type ValidLogin } from "./session.ts";

/**
 * The login form: the instance password in single-user mode; username, password and the
 * forgot-password link in multi-user mode. Submitting disables the button and shows 'Validating...'.
 */
export function CredentialsForm(
  { mode, onLogin, onForgotPassword }: {
    mode: "single" | "multi";
    onLogin: (answer: ValidLogin) => void;
    onForgotPassword: () => void;
  },
) {
  const { t } = useTranslation();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const credentials = loginCredentials(mode, username, password);
      const body = await api("/request-token", { json: credentials });
      onLogin(formLogin(mode, body, t("login.failedFallback")));
    } catch (caught) {
      setError((caught as Error).message || t("login.failedFallback"));
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit}>
      {mode === "multi" && (
        <UsernameField
          label={t("login.username")}
          autoFocus
          disabled={busy}
          value={username}
          onValue={setUsername}
        />
      )}
      <PasswordField
        label={t("login.password")}
        autoComplete="current-password"
        autoFocus={mode === "single"}
        disabled={busy}
        value={password}
        onValue={setPassword}
      />
      {error && <p className="form-error" role="alert">{t("common.errorPrefix", { message: error })}</p>}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? t("login.validating") : t("login.submit")}
      </button>
      {mode === "multi" && (
        <button type="button" className="link-button" onClick={onForgotPassword}>
          {t("login.forgotPassword")}
        </button>
      )}
    </form>
  );
}
