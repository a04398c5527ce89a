import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { TextField } from "../components/TextField.tsx";
import { AuthCard } from "../features/auth/AuthCard.tsx";
import { storeSession, validLogin } from "../features/auth/session.ts";
import { fetchSetup } from "../features/settings/setup.ts";
import { api } from "../lib/api.ts";

type Props = { appName: string; newToken: boolean };
type Mode = "loading" | "single" | "multi";

/**
 * /login (spec 01 §2.3): decides whether a login is needed; single-user asks for the instance password,
 * multi-user for a username and password.
 */
export default function Login({ appName }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>("loading");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    fetchSetup().then((setup) => {
      if (!setup.RequiresAuth && !setup.MultiUserMode) return globalThis.location.replace(paths.home());
      setMode(setup.MultiUserMode ? "multi" : "single");
    }).catch((caught: Error) => setLoadError(caught.message));
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const credentials = mode === "multi" ? { username: username.trim(), password } : { password };
      const answer = validLogin(
        await api("/request-token", { json: credentials }),
        t("login.failedFallback"),
      );
      if (mode === "multi" && !answer.user) throw new Error(answer.message || t("login.failedFallback"));
      storeSession({ token: answer.token, user: mode === "multi" ? answer.user : null });
      globalThis.location.assign(paths.home());
    } catch (caught) {
      setError((caught as Error).message || t("login.failedFallback"));
      setBusy(false);
    }
  }

  if (loadError) {
    return (
      <div className="page-message" role="alert">
        <h1>{t("login.loadFailed")}</h1>
        <p>{loadError}</p>
      </div>
    );
  }
  if (mode === "loading") return <LoadingBlock label={t("login.checking")} />;

  return (
    <AuthCard brand={appName} tagline={t("login.tagline")}>
      <p className="auth-mobile-brand" aria-hidden="true">{appName}</p>
      <h1>{t("login.heading", { appName })}</h1>
      <p className="muted">{mode === "multi" ? t("login.multiIntro") : t("login.singleIntro")}</p>
      <form className="form" onSubmit={submit}>
        {mode === "multi" && (
          <TextField
            label={t("login.username")}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            autoFocus
            disabled={busy}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        )}
        <TextField
          label={t("login.password")}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          autoFocus={mode === "single"}
          disabled={busy}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {error && <p className="form-error" role="alert">{t("common.errorPrefix", { message: error })}</p>}
        <button type="submit" className="button primary block" disabled={busy}>
          {busy ? t("login.validating") : t("login.submit")}
        </button>
      </form>
    </AuthCard>
  );
}
