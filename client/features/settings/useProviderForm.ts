import { useCallback, useEffect, useState } from "react";
import type {
  AutoDetect,
  ModelLookup,
  ProviderKind,
  SettingField,
} from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret, MASKED_SECRET } from "../../../shared/settings.ts";
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
function initialValue(field: SettingField, setup: SetupResults): string {
  const saved = setup[field.key];
  if (field.type === "password") {
    return saved === true ? MASKED_SECRET : typeof saved === "string" ? saved : "";
  }
  if (typeof saved === "string" || typeof saved === "number") return String(saved);
  // A fixed choice starts at its default, else its first option.
  return field.defaultValue ?? field.options?.[0]?.value ?? "";
}

function initialValues(choices: readonly ProviderChoice[], setup: SetupResults): Record<string, string> {
  const fields = choices.flatMap((choice) => choice.fields);
  return Object.fromEntries(fields.map((field) => [field.key, initialValue(field, setup)]));
}

function initialChoice(choices: readonly ProviderChoice[], savedId: string | null): string {
  return choices.find((choice) => choice.id === savedId)?.id ?? choices[0]?.id ?? "";
}

/**
 * State of a provider choice plus its settings form. The selection starts at the saved provider, else the
 * first choice; values start from the saved settings.
 */
export function useProviderForm(
  choices: readonly ProviderChoice[],
  setup: SetupResults | null,
  savedId: string | null,
) {
  const [selected, setSelected] = useState(() => setup ? initialChoice(choices, savedId) : "");
  const [values, setValues] = useState(() => setup ? initialValues(choices, setup) : {});

  useEffect(() => {
    if (!setup) return;
    setValues(initialValues(choices, setup));
    setSelected(initialChoice(choices, savedId));
  }, [setup, savedId, choices]);

  const setValue = useCallback(
    (key: string, value: string) => setValues((current) => ({ ...current, [key]: value })),
    [],
  );
  const locked: readonly string[] = setup?.LockedSettings ?? [];
  const choice = choices.find((entry) => entry.id === selected) ?? null;

  /**
   * The chosen provider's fields for update-env, without locked keys. A secret still showing the saved mask
   * is left out: it is never sent back as if it had changed.
   */
  function fieldSettings(): Record<string, string> {
    const settings: Record<string, string> = {};
    for (const field of choice?.fields ?? []) {
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

  return {
    selected,
    select: setSelected,
    choice,
    values,
    locked,
    setValue,
    fieldSettings,
    /** Takes the values the server stored (secrets come back masked). */
    applySaved: (newValues: Record<string, string>) => setValues((current) => ({ ...current, ...newValues })),
  };
}

export type ProviderForm = ReturnType<typeof useProviderForm>;
