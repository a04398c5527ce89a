import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { AuthCard } from "../features/auth/AuthCard.tsx";
import { safeRedirect, validLogin } from "../features/auth/session.ts";
import { adoptAccountLanguage } from "../lib/language_switch.ts";
import { api } from "../lib/api.ts";
import { clearSession, storeSession } from "../lib/auth.ts";

type Props = {
  token: string | null;
  redirectTo: string;
  /** `simple`: a simple-SSO link (/sso/simple); `oidc`: the end of an OpenID Connect login (/sso/oidc). */
  via?: "simple" | "oidc";
  /** /sso/oidc?error=<code>: why the server refused the identity provider's answer. */
  errorCode?: string | null;
};

const OIDC_ERRORS = [
  "unavailable",
  "provider",
  "state",
  "token",
  "username",
  "exists",
  "no_account",
  "suspended",
];

/** /sso/simple and /sso/oidc: signs in with a one-time token, then goes to redirectTo. */
export default function SsoLanding({ token, redirectTo, via = "simple", errorCode = null }: Props) {
  const { t } = useTranslation();
  const refusal = errorCode
    ? t(`sso.oidcErrors.${OIDC_ERRORS.includes(errorCode) ? errorCode : "token"}`)
    : null;
  const [error, setError] = useState<string | null>(refusal ?? (token ? null : t("sso.noToken")));

  useEffect(() => {
    if (!token || refusal) return;
    clearSession();
    api(`/request-token/sso/${via}?token=${encodeURIComponent(token)}`)
      .then((body) => {
        const answer = validLogin(body, t("sso.invalid"));
        storeSession({ token: answer.token, user: answer.user });
        adoptAccountLanguage(answer.user);
        globalThis.location.replace(safeRedirect(redirectTo));
      })
      .catch((caught: Error) => setError(caught.message || t("sso.invalid")));
  }, [token, redirectTo]);

  if (!error) return <LoadingBlock label={t("sso.signingIn")} />;
  return (
    <AuthCard>
      <div role="alert">
        <h1>{via === "oidc" ? t("sso.oidcFailedTitle") : t("sso.failedTitle")}</h1>
        <p className="form-error">{error}</p>
        <p>{t("sso.contactAdmin")}</p>
        {via === "oidc" && <a className="button secondary" href={paths.login()}>{t("sso.backToLogin")}</a>}
      </div>
    </AuthCard>
  );
}
