import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type LoginReason, paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { BrandLogo } from "../components/BrandLogo.tsx";
import type { LogoInfo } from "../../shared/api/appearance.ts";
import { AuthCard } from "../features/auth/AuthCard.tsx";
import { CredentialsForm } from "../features/auth/CredentialsForm.tsx";
import { RecoveryCodesModal } from "../features/auth/RecoveryCodesModal.tsx";
import { RecoveryForm, ResetForm } from "../features/auth/RecoveryForms.tsx";
import { safeRedirect, type ValidLogin } from "../features/auth/session.ts";
import { fetchSetup } from "../features/settings/setup.ts";
import { api, ApiError } from "../lib/api.ts";
import { clearSession, readSession, storeSession } from "../lib/auth.ts";
import { adoptAccountLanguage } from "../lib/language_switch.ts";

type Props = {
  appName: string;
  /** The custom logo (Settings → Appearance), shown beside the form on wide screens and above it on phones. */
  logo?: LogoInfo;
  newToken: boolean;
  /** The admin's own change that sent them here (the query flag `reason`), said above the form. */
  reason: LoginReason | null;
};
type Mode = "loading" | "single" | "multi";
/** OpenID Connect login as the instance offers it: the button's provider name and whether passwords work. */
type Oidc = { provider: string | null; passwordLogin: boolean };
type View = "login" | "recover" | "reset";

/** Where to go after signing in: a safe ?redirectTo= of this site, else home. */
const destination = () => safeRedirect(new URLSearchParams(globalThis.location.search).get("redirectTo"));

/**
 * Whether the stored token still works. Without nt=1 the login screen first tries the stored session and
 * goes on when it is valid; a refused one is forgotten.
 */
async function storedSessionValid(): Promise<boolean> {
  if (!readSession().token) return false;
  try {
    await api("/system/check-token");
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) clearSession();
    return false;
  }
}

/** What the login screen says to a visitor sent here by their own step. */
const REASON_TEXTS: Record<LoginReason, string> = {
  "multi-user-enabled": "login.reasons.multiUserEnabled",
  "password-set": "login.reasons.passwordSet",
  "account-created": "login.reasons.accountCreated",
};

/**
 * /login: decides whether a login is needed; single-user asks for the instance password,
 * multi-user for a username and password, with the forgot-password flow and the recovery-codes modal.
 */
export default function Login({ appName, logo = null, newToken, reason }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>("loading");
  const [view, setView] = useState<View>("login");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [pending, setPending] = useState<ValidLogin | null>(null);
  const [oidc, setOidc] = useState<Oidc>({ provider: null, passwordLogin: true });
  const finished = useRef(false);

  useEffect(() => {
    (async () => {
      const setup = await fetchSetup().catch((caught: Error) => {
        throw new Error(t("settings.loadFailed", { error: caught.message }));
      });
      if (!setup.RequiresAuth && !setup.MultiUserMode) return globalThis.location.replace(paths.home());
      if (!newToken && await storedSessionValid()) return globalThis.location.replace(destination());
      setOidc({ provider: setup.OidcLogin ?? null, passwordLogin: setup.PasswordLogin !== false });
      setMode(setup.MultiUserMode ? "multi" : "single");
    })().catch((caught: Error) => setLoadError(caught.message));
  }, [newToken]);

  /** Stores the session and leaves: at once, or after the recovery codes were downloaded and closed. */
  function finish(answer: ValidLogin) {
    if (finished.current) return;
    finished.current = true;
    storeSession({ token: answer.token, user: mode === "multi" ? answer.user : null });
    if (mode === "multi") adoptAccountLanguage(answer.user);
    globalThis.location.assign(destination());
  }

  function loggedIn(answer: ValidLogin) {
    if (answer.recoveryCodes?.length) setPending(answer);
    else finish(answer);
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

  const headings: Record<View, string> = {
    login: t("login.heading", { appName }),
    recover: t("login.recovery.heading"),
    reset: t("login.reset.heading"),
  };
  return (
    <AuthCard brand={appName} logo={logo} tagline={t("login.tagline")}>
      <p className="auth-mobile-brand" aria-hidden="true">
        <BrandLogo logo={logo} appName={appName} className="auth-mobile-logo" />
      </p>
      <h1>{headings[view]}</h1>
      {view === "login" && (
        <>
          {reason && (
            <p className="notice" role="status">
              {t(REASON_TEXTS[reason])}
            </p>
          )}
          {mode === "multi" && oidc.provider && (
            <>
              <a
                className="button primary oidc-login"
                href={`/api/auth/oidc/login?redirectTo=${encodeURIComponent(destination())}`}
              >
                {t("login.oidc.button", { provider: oidc.provider })}
              </a>
              {oidc.passwordLogin && <p className="auth-divider">{t("login.oidc.or")}</p>}
            </>
          )}
          {mode === "multi" && !oidc.passwordLogin
            ? <p className="muted">{t("login.oidc.passwordOff")}</p>
            : (
              <>
                <p className="muted">{mode === "multi" ? t("login.multiIntro") : t("login.singleIntro")}</p>
                <CredentialsForm mode={mode} onLogin={loggedIn} onForgotPassword={() => setView("recover")} />
              </>
            )}
        </>
      )}
      {view === "recover" && (
        <RecoveryForm
          onRecovered={() => setView("reset")}
          onBack={() => setView("login")}
        />
      )}
      {view === "reset" && <ResetForm onDone={() => setView("login")} onBack={() => setView("login")} />}
      {pending?.recoveryCodes && (
        <RecoveryCodesModal
          codes={pending.recoveryCodes}
          onClose={() => finish(pending)}
        />
      )}
    </AuthCard>
  );
}
