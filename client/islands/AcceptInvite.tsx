import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { InviteLookup } from "../../shared/api/admin.ts";
import { SuccessAnswer } from "../../shared/api/auth.ts";
import { paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { PasswordField } from "../components/PasswordField.tsx";
import { UsernameField } from "../components/UsernameField.tsx";
import { AuthCard } from "../features/auth/AuthCard.tsx";
import {
  PASSWORD_MIN_LENGTH,
  USERNAME_MIN_LENGTH as USERNAME_MIN,
  usernameProblem,
} from "../features/auth/validation.ts";
import { api } from "../lib/api.ts";
import { toast } from "../lib/toast.ts";

type Props = { code: string };

/** How long the success toast shows before the login screen replaces this page. */
const REDIRECT_DELAY_MS = 1000;

/** /accept-invite/{code}: checks the invitation, then creates the account and goes to the login. */
export default function AcceptInvite({ code }: Props) {
  const { t } = useTranslation();
  const path = `/invite/${encodeURIComponent(code)}`;
  const [state, setState] = useState<"loading" | "ready" | "invalid">("loading");
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api(path, { schema: InviteLookup }).then((answer) => {
      if (answer.error) throw new Error(answer.error);
      if (!answer.invite) throw new Error(t("invite.notFound"));
      if (answer.invite.status !== "pending") throw new Error(t("invite.noLongerValid"));
      setState("ready");
    }).catch((caught: Error) => {
      setInviteError(caught.message);
      setState("invalid");
    });
  }, [path]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = usernameProblem(username, USERNAME_MIN);
    if (problem) return setError(t(problem, { min: USERNAME_MIN }));
    if (password.length < PASSWORD_MIN_LENGTH) return setError(t("invite.errors.passwordTooShort"));
    setBusy(true);
    setError(null);
    try {
      const answer = await api(path, { json: { username, password }, schema: SuccessAnswer });
      if (answer.error) throw new Error(answer.error);
      if (!answer.success) throw new Error(t("invite.failed"));
      toast.success(t("invite.created"));
      setTimeout(() => globalThis.location.assign(paths.login("account-created")), REDIRECT_DELAY_MS);
    } catch (caught) {
      setError((caught as Error).message);
      setBusy(false);
    }
  }

  if (state === "loading") return <LoadingBlock label={t("invite.checking")} />;
  if (state === "invalid") {
    return (
      <div className="page-message" role="alert">
        <h1>{t("invite.invalidTitle")}</h1>
        <p>{inviteError}</p>
        <a className="button secondary" href={paths.login()}>{t("invite.goToLogin")}</a>
      </div>
    );
  }

  return (
    <AuthCard>
      <h1>{t("invite.heading")}</h1>
      <p className="muted">{t("invite.intro")}</p>
      <form className="form" onSubmit={submit} noValidate>
        <UsernameField
          label={t("invite.username")}
          hint={t("invite.usernameHint")}
          minLength={USERNAME_MIN}
          pattern="[a-z0-9_\-]+"
          disabled={busy}
          value={username}
          onValue={setUsername}
        />
        <PasswordField
          label={t("invite.password")}
          hint={t("invite.passwordHint")}
          minLength={PASSWORD_MIN_LENGTH}
          disabled={busy}
          value={password}
          onValue={setPassword}
        />
        {error && <p className="form-error" role="alert">{t("common.errorPrefix", { message: error })}</p>}
        <button type="submit" className="button primary block" disabled={busy}>
          {busy ? t("invite.creating") : t("invite.submit")}
        </button>
      </form>
    </AuthCard>
  );
}
