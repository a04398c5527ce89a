import { useTranslation } from "react-i18next";
import { PasswordField } from "../../components/PasswordField.tsx";
import { UsernameField } from "../../components/UsernameField.tsx";
import { PASSWORD_MIN_LENGTH } from "../auth/validation.ts";
import { ChoiceGroup } from "./ChoiceGroup.tsx";

/** The instance password input accepts 6 characters; forward needs 8. */
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
        <PasswordField
          id="instance-password"
          label={t("onboarding.userSetup.instancePassword")}
          hint={
            <>{t("onboarding.userSetup.passwordLength")} {t("onboarding.userSetup.passwordNoRecovery")}</>
          }
          minLength={INSTANCE_PASSWORD_INPUT_MIN}
          disabled={disabled}
          value={password}
          onValue={onPasswordChange}
        />
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
      <UsernameField
        id="admin-username"
        label={t("onboarding.userSetup.adminUsername")}
        hint={t("onboarding.userSetup.usernameHint", { min: 6 })}
        error={usernameProblem}
        minLength={6}
        pattern="[a-z0-9_\-]+"
        disabled={disabled}
        value={username}
        onValue={onUsernameChange}
      />
      <PasswordField
        id="admin-password"
        label={t("onboarding.userSetup.adminPassword")}
        hint={t("onboarding.userSetup.passwordLength")}
        minLength={PASSWORD_MIN_LENGTH}
        disabled={disabled}
        value={password}
        onValue={onPasswordChange}
      />
    </>
  );
}
