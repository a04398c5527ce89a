import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { AuthCard } from "../features/auth/AuthCard.tsx";
import { safeRedirect, validLogin } from "../features/auth/session.ts";
import { api } from "../lib/api.ts";
import { clearSession, storeSession } from "../lib/auth.ts";

type Props = { token: string | null; redirectTo: string };

/** /sso/simple: signs in with a one-time token, then goes to redirectTo. */
export default function SsoLanding({ token, redirectTo }: Props) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(token ? null : t("sso.noToken"));

  useEffect(() => {
    if (!token) return;
    clearSession();
    api(`/request-token/sso/simple?token=${encodeURIComponent(token)}`)
      .then((body) => {
        const answer = validLogin(body, t("sso.invalid"));
        storeSession({ token: answer.token, user: answer.user });
        globalThis.location.replace(safeRedirect(redirectTo));
      })
      .catch((caught: Error) => setError(caught.message || t("sso.invalid")));
  }, [token, redirectTo]);

  if (!error) return <LoadingBlock label={t("sso.signingIn")} />;
  return (
    <AuthCard>
      <div role="alert">
        <h1>{t("sso.failedTitle")}</h1>
        <p className="form-error">{error}</p>
        <p>{t("sso.contactAdmin")}</p>
      </div>
    </AuthCard>
  );
}
