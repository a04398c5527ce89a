import { useTranslation } from "react-i18next";
import { PASSWORD_MIN_LENGTH } from "../auth/validation.ts";
import { ChoiceGroup } from "./ChoiceGroup.tsx";

/** The instance password input accepts 6 characters; forward needs 8 (spec 01 §5). */
const INSTANCE_PASSWORD_INPUT_MIN = 6;

/** 'Just me': whether to protect the instance with a password, and the password. */
export function PasswordSetup(
  { usePassword, onUsePasswordChange, password, onPasswordChange, disabled }: {
    usePassword: "yes" | "no" | null;
    onUsePasswordChange: (value: "yes" | "no") => void;
    password: string;
    onPasswordChange: (value: string) => void;
    disabled: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <>
      <ChoiceGroup
        name="use-password"
        legend={t("onboarding.userSetup.passwordQuestion")}
        value={usePassword}
        onChange={onUsePasswordChange}
        disabled={disabled}
        options={[
          { value: "yes", label: t("onboarding.userSetup.yes") },
          { value: "no", label: t("onboarding.userSetup.no") },
        ]}
      />
      {usePassword === "yes" && (
        <div className="field">
          <label className="field-label" htmlFor="instance-password">
            {t("onboarding.userSetup.instancePassword")}
          </label>
          <input
            id="instance-password"
            className="input"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={INSTANCE_PASSWORD_INPUT_MIN}
            disabled={disabled}
            value={password}
            aria-describedby="instance-password-hint"
            onChange={(event) => onPasswordChange(event.target.value)}
          />
          <span id="instance-password-hint" className="field-hint">
            {t("onboarding.userSetup.passwordLength")} {t("onboarding.userSetup.passwordNoRecovery")}
          </span>
        </div>
      )}
    </>
  );
}

/** 'My team': the first admin's username and password. */
export function TeamSetup(
  { username, usernameProblem, onUsernameChange, password, onPasswordChange, disabled }: {
    username: string;
    /** Shown once typing has settled and the username breaks a rule. */
    usernameProblem: string | null;
    onUsernameChange: (value: string) => void;
    password: string;
    onPasswordChange: (value: string) => void;
    disabled: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <>
      <p className="notice">{t("onboarding.userSetup.teamHint")}</p>
      <div className="field">
        <label className="field-label" htmlFor="admin-username">
          {t("onboarding.userSetup.adminUsername")}
        </label>
        <input
          id="admin-username"
          className="input"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          minLength={6}
          pattern="[a-z0-9_\-]+"
          disabled={disabled}
          value={username}
          aria-describedby="admin-username-hint"
          aria-invalid={usernameProblem ? true : undefined}
          onChange={(event) => onUsernameChange(event.target.value)}
        />
        <span id="admin-username-hint" className="field-hint">
          {t("onboarding.userSetup.usernameHint", { min: 6 })}
        </span>
        {usernameProblem && <span className="field-error" role="alert">{usernameProblem}</span>}
      </div>
      <div className="field">
        <label className="field-label" htmlFor="admin-password">
          {t("onboarding.userSetup.adminPassword")}
        </label>
        <input
          id="admin-password"
          className="input"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          disabled={disabled}
          value={password}
          aria-describedby="admin-password-hint"
          onChange={(event) => onPasswordChange(event.target.value)}
        />
        <span id="admin-password-hint" className="field-hint">
          {t("onboarding.userSetup.passwordLength")}
        </span>
      </div>
    </>
  );
}
