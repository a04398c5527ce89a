import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH } from "../../../shared/limits.ts";
import { LANGUAGES } from "../../../shared/language_names.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { PasswordField } from "../../components/PasswordField.tsx";
import { UsernameField } from "../../components/UsernameField.tsx";
import { type StoredUser, storeSession, updateStoredUser } from "../../lib/auth.ts";
import { toast } from "../../lib/toast.ts";
import { updateAccount } from "./account_api.ts";
import { accountProblems } from "./account_rules.ts";
import { ProfilePictureField } from "./ProfilePictureField.tsx";

/**
 * The account modal: profile picture, username, new password, preferred language. Empty fields
 * are left out of the update; the stored user follows a saved change.
 */
export function AccountModal(
  { user, picture, onPictureChange, onSaved, onClose }: {
    user: StoredUser;
    picture: { url: string | null; error: string | null };
    onPictureChange: () => void;
    onSaved: (user: StoredUser) => void;
    onClose: () => void;
  },
) {
  const { t, i18n } = useTranslation();
  const [username, setUsername] = useState(user.username ?? "");
  const [password, setPassword] = useState("");
  // The interface's language is the choice shown; the others offered are those whose texts were built.
  const [language, setLanguage] = useState<string>(i18n.language || "en");
  const [offered, setOffered] = useState<readonly { code: string; name: string }[]>(
    LANGUAGES.filter((option) => option.code === "en" || option.code === language),
  );
  useEffect(() => {
    import("../../lib/locales.ts").then((module) => setOffered(module.AVAILABLE_LANGUAGES));
  }, []);
  const [errors, setErrors] = useState<{ username?: string | null; password?: string | null }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = accountProblems(username, password);
    setErrors(found);
    if (found.username || found.password) return;
    setBusy(true);
    try {
      const changes = { username: username.trim(), password, preferredLanguage: language };
      const token = await updateAccount(changes);
      const saved = { ...user, username: changes.username, preferredLanguage: language };
      if (token) storeSession({ token, user: saved });
      else updateStoredUser({ username: saved.username, preferredLanguage: language });
      if (language !== i18n.language) await (await import("../../lib/locales.ts")).choose(language);
      toast.success(i18n.t("account.updated"));
      onSaved(saved);
    } catch (caught) {
      toast.error(t("account.updateFailed", { error: (caught as Error).message }));
      setBusy(false);
    }
  }

  return (
    <Dialog open title={t("account.title")} onClose={onClose}>
      <form className="form account-form" onSubmit={submit} noValidate>
        <ProfilePictureField
          url={picture.url}
          error={picture.error}
          username={user.username}
          onChange={onPictureChange}
        />
        <UsernameField
          id="account-username"
          label={t("account.username")}
          hint={t("account.usernameHint", { min: USERNAME_MIN_LENGTH })}
          error={errors.username}
          minLength={USERNAME_MIN_LENGTH}
          disabled={busy}
          value={username}
          onValue={setUsername}
        />
        {/* Optional: left empty, the password stays as it is. */}
        <PasswordField
          id="account-password"
          label={t("account.password")}
          hint={t("account.passwordHint")}
          error={errors.password}
          required={false}
          minLength={PASSWORD_MIN_LENGTH}
          disabled={busy}
          value={password}
          onValue={setPassword}
        />
        <label className="field">
          <span className="field-label">{t("account.language")}</span>
          <select
            className="select"
            name="preferredLanguage"
            disabled={busy}
            value={language}
            onChange={(event) => setLanguage(event.target.value)}
          >
            {offered.map((option) => <option key={option.code} value={option.code}>{option.name}</option>)}
          </select>
        </label>
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={onClose}>{t("common.cancel")}</button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t("account.saving") : t("account.save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
