import {
  fieldApplies,
  isModelField,
  type SettingField,
  type SettingOption,
} from "../../../shared/providers/llm_catalog.ts";

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

/**
 * The locale keys of a field's label and hint: its own (`settings.fields.<key>`), else its role's
 * (`settings.fieldRoles.<role>`, which name the provider), so a new vendor's row needs no texts of its own.
 */
export function fieldTextKeys(
  field: SettingField,
  exists: (key: string) => boolean,
): { label: string; hint: string | null } {
  const own = `settings.fields.${field.key}`;
  const role = field.role ? `settings.fieldRoles.${field.role}` : null;
  const label = exists(`${own}.label`) || !role ? `${own}.label` : `${role}.label`;
  const hint = exists(`${own}.hint`)
    ? `${own}.hint`
    : role && !exists(`${own}.label`) && exists(`${role}.hint`)
    ? `${role}.hint`
    : null;
  return { label, hint };
}

/**
 * The fields the form shows with its current values: a field tied to another's value only while it has it
 * (Bedrock's session token), and without the model and limit fields when only credentials are asked for.
 */
export function visibleFields(
  fields: readonly SettingField[],
  values: Record<string, string>,
  credentialsOnly = false,
): SettingField[] {
  return fields.filter((field) =>
    fieldApplies(field, (key) => values[key] || undefined) && !(credentialsOnly && isModelField(field))
  );
}

/** A select's options in their groups, in order of first appearance; ungrouped options under null. */
export function optionGroups(
  options: readonly SettingOption[],
): { group: string | null; options: SettingOption[] }[] {
  const groups: { group: string | null; options: SettingOption[] }[] = [];
  for (const option of options) {
    const group = option.group ?? null;
    const last = groups.find((entry) => entry.group === group);
    if (last) last.options.push(option);
    else groups.push({ group, options: [option] });
  }
  return groups;
}
