import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { clearSession } from "../../../lib/auth.ts";
import { toast } from "../../../lib/toast.ts";
import { RulePasswordField } from "../RuleFields.tsx";
import { act, messageOf } from "../requests.ts";
import { RULES } from "../validation.ts";
import { passwordFormState } from "./rules.ts";
import { signInAgain } from "./leave.ts";

/**
 * Single-user mode: protect the instance with one password, change it, or remove it. Setting a password
 * signs everyone out, this visitor included; removing it leaves the stored token useless, so it is dropped.
 */
export function PasswordProtection({ requiresAuth }: { requiresAuth: boolean }) {
  const { t } = useTranslation();
  const [protectedNow, setProtectedNow] = useState(requiresAuth);
  const [enabled, setEnabled] = useState(requiresAuth);
  const [password, setPassword] = useState("");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const { problem, unchanged } = passwordFormState(enabled, protectedNow, password);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || problem || unchanged) return;
    setBusy(true);
    try {
      await act(
        "/system/update-password",
        { json: { usePassword: enabled, newPassword: enabled ? password : "" } },
        t("security.password.refused"),
      );
      if (enabled) return signInAgain("password-set");
      clearSession();
      toast.success(t("security.password.removed"));
      setProtectedNow(false);
    } catch (caught) {
      toast.error(t("security.password.failed", { error: messageOf(caught) }));
    }
    setBusy(false);
  }

  return (
    <section className="card admin-card" aria-labelledby="password-protection">
      <h2 id="password-protection">{t("security.password.heading")}</h2>
      <p className="muted">
        {protectedNow ? t("security.password.stateOn") : t("security.password.stateOff")}
      </p>
      <form className="form" onSubmit={submit} noValidate>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            disabled={busy}
            onChange={(event) => setEnabled(event.target.checked)}
          />
          <span>{t("security.password.toggle")}</span>
        </label>
        {enabled && (
          <RulePasswordField
            id="instance-password"
            label={protectedNow ? t("security.password.newPassword") : t("security.password.password")}
            hint={t("security.password.hint", RULES)}
            problem={problem}
            tried={tried}
            disabled={busy}
            value={password}
            onValue={setPassword}
          />
        )}
        {enabled && <p className="notice">{t("security.password.signInNotice")}</p>}
        <div className="form-actions start">
          <button type="submit" className="button primary" disabled={busy || unchanged}>
            {busy ? t("common.saving") : t("common.save")}
          </button>
        </div>
      </form>
    </section>
  );
}
