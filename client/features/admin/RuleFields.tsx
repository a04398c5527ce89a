import type { ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import { PasswordField } from "../../components/PasswordField.tsx";
import { UsernameField } from "../../components/UsernameField.tsx";
import { RULES } from "./validation.ts";

/** The i18n key of the rule the value breaks (validation.ts), shown as the field's error once `tried`. */
type RuleProps = { problem: string | null; tried: boolean };

/** A username under the account rules: their hint and maximum length, and the broken rule once tried. */
export function RuleUsernameField(
  { problem, tried, ...field }:
    & Omit<ComponentProps<typeof UsernameField>, "hint" | "error" | "maxLength">
    & RuleProps,
) {
  const { t } = useTranslation();
  return (
    <UsernameField
      hint={t("users.fields.usernameHint", RULES)}
      error={tried && problem ? t(problem, RULES) : null}
      maxLength={RULES.usernameMax}
      {...field}
    />
  );
}

/**
 * A new password under the account rules: their minimum length, and the broken rule once tried; the hint
 * is the rules' own unless another is given.
 */
export function RulePasswordField(
  { problem, tried, hint, ...field }:
    & Omit<ComponentProps<typeof PasswordField>, "error" | "minLength">
    & RuleProps,
) {
  const { t } = useTranslation();
  return (
    <PasswordField
      hint={hint ?? t("users.fields.passwordHint", RULES)}
      error={tried && problem ? t(problem, RULES) : null}
      minLength={RULES.passwordMin}
      {...field}
    />
  );
}
