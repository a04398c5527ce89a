import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog.tsx";
import { toast } from "../../../lib/toast.ts";
import { RulePasswordField, RuleUsernameField } from "../RuleFields.tsx";
import * as z from "zod";
import { User } from "../../../../shared/api/auth.ts";
import { api, ApiError } from "../../../lib/api.ts";
import { storeSession } from "../../../lib/auth.ts";
import { paths } from "../../../../shared/routes.ts";
import { messageOf } from "../requests.ts";
import { passwordProblem, usernameProblem } from "../validation.ts";
import { signInAgain } from "./leave.ts";
import { keepsReturnedSession } from "./rules.ts";

const EnableAnswer = z.looseObject({
  success: z.boolean(),
  error: z.string().nullable().optional(),
  user: User.nullable().optional(),
  token: z.string().nullable().optional(),
});

/**
 * Single-user mode: turn on accounts, with this visitor's account as the first admin. There is no way back,
 * so the admin confirms first, with the username that becomes the admin in front of them. Afterwards the admin
 * signs in on the login screen, which shows the recovery codes; when password login is off (simple SSO only),
 * that screen could never let them in, so the session the server returns is kept instead.
 */
export function EnableMultiUser({ passwordLoginOff }: { passwordLoginOff: boolean }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const usernameError = usernameProblem(username.trim());
  const passwordError = passwordProblem(password);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || usernameError || passwordError) return;
    setConfirming(true);
  }

  async function enable() {
    setBusy(true);
    try {
      const answer = await api("/system/enable-multi-user", {
        json: { username: username.trim(), password },
        schema: EnableAnswer,
      });
      if (!answer.success || answer.error) {
        throw new ApiError(answer.error || t("security.multiUser.refused"), 200, answer);
      }
      if (keepsReturnedSession(passwordLoginOff, answer) && answer.token && answer.user) {
        storeSession({ token: answer.token, user: answer.user });
        globalThis.location.assign(paths.home());
      } else {
        signInAgain("multi-user-enabled");
      }
    } catch (caught) {
      toast.error(t("security.multiUser.failed", { error: messageOf(caught) }));
      setConfirming(false);
      setBusy(false);
    }
  }

  return (
    <section className="card admin-card" aria-labelledby="enable-multi-user">
      <h2 id="enable-multi-user">{t("security.multiUser.heading")}</h2>
      <p className="muted">{t("security.multiUser.intro")}</p>
      <p className="notice warning">{t("security.multiUser.warning")}</p>
      <form className="form" onSubmit={submit} noValidate>
        <RuleUsernameField
          id="admin-username"
          label={t("security.multiUser.username")}
          problem={usernameError}
          tried={tried}
          disabled={busy}
          value={username}
          onValue={setUsername}
        />
        <RulePasswordField
          id="admin-password"
          label={t("security.multiUser.password")}
          problem={passwordError}
          tried={tried}
          disabled={busy}
          value={password}
          onValue={setPassword}
        />
        <div className="form-actions start">
          <button type="submit" className="button danger" disabled={busy}>
            {busy ? t("security.multiUser.busy") : t("security.multiUser.submit")}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t("security.multiUser.confirmTitle")}
        message={t("security.multiUser.confirm", { username: username.trim() })}
        confirmLabel={t("security.multiUser.submit")}
        tone="primary"
        busy={busy}
        onConfirm={() => void enable()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
