import { useCallback, useEffect, useState } from "react";
import {
  fieldSettings as settingsOf,
  initialChoice,
  initialValues,
  type ProviderChoice,
} from "./provider_form.ts";
import type { SetupResults } from "./setup.ts";

export type { ProviderChoice };

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

  /** The chosen provider's fields for update-env (provider_form.ts). */
  function fieldSettings(): Record<string, string> {
    return settingsOf(choice, values, locked, setup);
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
