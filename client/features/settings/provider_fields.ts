import type { SettingField } from "../../../shared/providers/llm_catalog.ts";

const INPUT_TYPES: Record<"url" | "password" | "text" | "number", string> = {
  url: "url",
  password: "password",
  text: "text",
  number: "number",
};

/** The element id of a setting's control; its hint and problem take this id with a suffix. */
export const fieldId = (key: string) => `setting-${key}`;

/** The `aria-describedby` of a control: its hint and its problem, when it has them. */
export function describedByOf(id: string, hasHints: boolean, problem: string | null): string | undefined {
  return [hasHints ? `${id}-hint` : null, problem ? `${id}-problem` : null].filter(Boolean).join(" ") ||
    undefined;
}

/**
 * The attributes of a text, URL, number or password input: required unless the environment fixes it, whole
 * numbers of at least 1, and the browser's password manager kept out of a provider's key.
 */
export function inputAttributes(field: SettingField, isLocked: boolean) {
  const number = field.type === "number";
  return {
    type: INPUT_TYPES[field.type as keyof typeof INPUT_TYPES] ?? "text",
    required: field.required && !isLocked,
    min: number ? 1 : undefined,
    step: number ? 1 : undefined,
    inputMode: number ? "numeric" as const : undefined,
    autoComplete: field.type === "password" ? "new-password" : "off",
  };
}

/** Whether a saved value is not among a select's options (it is then offered as it is, so nothing is lost). */
export function isUnlisted(value: string, options: readonly { value: string }[]): boolean {
  return value !== "" && !options.some((option) => option.value === value);
}
