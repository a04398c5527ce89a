import type {
  AutoDetect,
  ModelLookup,
  ProviderKind,
  SettingField,
} from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret, MASKED_SECRET } from "../../../shared/settings.ts";
import { visibleFields } from "./provider_fields.ts";
import type { SetupResults } from "./setup.ts";

export interface ProviderChoice {
  id: string;
  name: string;
  kind: ProviderKind;
  fields: readonly SettingField[];
  /** How the form lists the provider's models (a "model" field). */
  lookup?: ModelLookup;
  /** Where a local server usually listens, for endpoint auto-detect. */
  autoDetect?: AutoDetect;
  /** Runs on the user's own machine or network. */
  local?: boolean;
}

/** A field's value as the form shows it: a saved secret reads as 20 asterisks, which the server skips. */
export function initialValue(field: SettingField, setup: SetupResults): string {
  const saved = setup[field.key];
  if (field.type === "password") {
    return saved === true ? MASKED_SECRET : typeof saved === "string" ? saved : "";
  }
  if (typeof saved === "string" || typeof saved === "number") return String(saved);
  // A fixed choice starts at its default, else its first option.
  return field.defaultValue ?? field.options?.[0]?.value ?? "";
}

/** Every field of every choice, with its initial value. */
export function initialValues(
  choices: readonly ProviderChoice[],
  setup: SetupResults,
): Record<string, string> {
  const fields = choices.flatMap((choice) => choice.fields);
  return Object.fromEntries(fields.map((field) => [field.key, initialValue(field, setup)]));
}

/** The saved choice when it is one of `choices`, else the first. */
export function initialChoice(choices: readonly ProviderChoice[], savedId: string | null): string {
  return choices.find((choice) => choice.id === savedId)?.id ?? choices[0]?.id ?? "";
}

/**
 * The chosen provider's fields for update-env, without locked keys. A secret still showing the saved mask
 * is left out: it is never sent back as if it had changed.
 */
export function fieldSettings(
  choice: ProviderChoice | null,
  values: Record<string, string>,
  locked: readonly string[],
  setup: SetupResults | null,
): Record<string, string> {
  const settings: Record<string, string> = {};
  // A field tied to another's value (Bedrock's session token) is only sent while it applies.
  for (const field of visibleFields(choice?.fields ?? [], values)) {
    if (locked.includes(field.key)) continue;
    const value = values[field.key] ?? "";
    if (field.type === "password" && isMaskedSecret(value)) continue;
    // An empty optional field with nothing saved is left out; with a saved value it is sent to clear it.
    const saved = setup?.[field.key];
    if (value.trim() === "" && !field.required && (saved === undefined || saved === false)) continue;
    settings[field.key] = field.type === "password" ? value : value.trim();
  }
  return settings;
}

/**
 * The choice itself for update-env (ProviderChoiceForm): `choiceKey` set to the selection unless locked, plus
 * the settings sent with every save that are not locked.
 */
export function choiceSettings(
  choiceKey: string,
  selected: string,
  locked: readonly string[],
  extraSettings: Record<string, string> = {},
): Record<string, string> {
  const settings: Record<string, string> = locked.includes(choiceKey) ? {} : { [choiceKey]: selected };
  for (const [key, value] of Object.entries(extraSettings)) {
    if (!locked.includes(key)) settings[key] = value;
  }
  return settings;
}

/** Local-server providers that need an embedding service of their own. */
const NEEDS_EMBEDDER = ["lmstudio", "localai"];

/** Whether the LLM provider carries the embedding-service notice. */
export function needsEmbedder(providerId: string): boolean {
  return NEEDS_EMBEDDER.includes(providerId);
}

/** Whether the vector database form warns of a switch: a database is saved and another is chosen. */
export function switchesDatabase(current: string | null, chosen: string | null): boolean {
  return current !== null && chosen !== null && chosen !== current;
}

/** The picker's rows for a search: those whose name or description contain it, ignoring case and spaces around. */
export function matchingOptions<T extends { name: string; description: string }>(
  options: readonly T[],
  query: string,
): readonly T[] {
  const needle = query.trim().toLowerCase();
  return needle
    ? options.filter((option) => `${option.name} ${option.description}`.toLowerCase().includes(needle))
    : options;
}
