import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ModelLookup, SettingField } from "../../../shared/providers/llm_catalog.ts";
import {
  fetchCustomModels,
  type FetchedModels,
  groupModels,
  type LookupPlan,
  type ModelListState,
  modelListState,
  planLookup,
  selectedModel,
} from "./model_lookup.ts";
import { useDebounced } from "./use_debounced.ts";
import { isUnlisted } from "./provider_fields.ts";
import { OptionList } from "./OptionList.tsx";

export type { ModelListState };

/**
 * The provider's models for the form's current values: the inputs the lookup uses settle for
 * 500 ms, a lookup that is no longer wanted is aborted, and `active` false (a read-only page, a locked field,
 * an endpoint being detected) asks nothing.
 */
export function useModelList(
  lookup: ModelLookup | undefined,
  fields: readonly SettingField[],
  values: Record<string, string>,
  active: boolean,
): ModelListState {
  const plan: LookupPlan | null = lookup ? planLookup(lookup, fields, values) : null;
  const planKey = JSON.stringify(plan);
  const settledKey = useDebounced(planKey);
  const [fetched, setFetched] = useState<FetchedModels | null>(null);

  useEffect(() => {
    const settled = JSON.parse(settledKey) as LookupPlan | null;
    if (!active || settled?.kind !== "ready") return;
    const controller = new AbortController();
    fetchCustomModels(settled.request, controller.signal).then(
      (models) => setFetched({ plan: settledKey, models, error: null }),
      (error: Error) => {
        if (!controller.signal.aborted) setFetched({ plan: settledKey, models: [], error: error.message });
      },
    );
    return () => controller.abort();
  }, [settledKey, active]);

  return modelListState(plan, settledKey, fetched, active);
}

type Props = {
  id: string;
  field: SettingField;
  value: string;
  onChange: (value: string) => void;
  list: ModelListState;
  /** The provider, for the placeholder that names it (Ollama: "Enter Ollama URL first"). */
  provider: string;
  describedBy?: string;
  /** Read-only or locked: the saved model is shown as the only choice, and nothing is looked up. */
  fixed: boolean;
  disabled: boolean;
};

/**
 * A model dropdown filled by the provider's model lookup: a disabled placeholder while loading or waiting for
 * a key or URL, "No models" for an empty list, models grouped by organization, the saved model preselected.
 */
export function ModelSelect(
  { id, field, value, onChange, list, provider, describedBy, fixed, disabled }: Props,
) {
  const { t, i18n } = useTranslation();
  const groups = useMemo(() => (list.status === "ready" ? groupModels(list.models) : []), [list]);
  const chosen = selectedModel(groups, value);
  const listed = chosen === value;

  // The saved model is preselected; when the server no longer lists it, the first model is chosen instead.
  useEffect(() => {
    if (!fixed && chosen !== undefined && !listed) onChange(chosen);
  }, [fixed, chosen, listed]);

  const placeholder = (text: string) => (
    <select id={id} className="select" name={field.key} disabled value="" aria-describedby={describedBy}>
      <option value="" disabled>{text}</option>
    </select>
  );

  if (fixed) {
    return (
      <select
        id={id}
        className="select"
        name={field.key}
        disabled
        value={value}
        aria-describedby={describedBy}
      >
        <option value={value}>{value || t("common.notSet")}</option>
      </select>
    );
  }
  // A provider with known models (Anthropic) offers them until its lookup lists the account's own.
  const known = field.options ?? [];
  const listedNone = list.status !== "ready" || groups.length === 0;
  if (known.length > 0 && listedNone) {
    return (
      <select
        id={id}
        className="select"
        name={field.key}
        required={field.required}
        disabled={disabled}
        value={value}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      >
        {isUnlisted(value, known) && <option value={value}>{value}</option>}
        <OptionList options={known} />
      </select>
    );
  }
  if (list.status === "waiting") {
    const special = `settings.models.waitingForUrlBy.${provider}`;
    if (list.for === "url" && i18n.exists(special)) return placeholder(t(special));
    return placeholder(
      t(list.for === "key" ? "settings.models.waitingForKey" : "settings.models.waitingForUrl"),
    );
  }
  if (list.status === "loading") return placeholder(t("settings.models.loading"));
  if (groups.length === 0) return placeholder(t("settings.models.none"));
  return (
    <select
      id={id}
      className="select"
      name={field.key}
      required={field.required}
      disabled={disabled}
      value={chosen}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
    >
      {groups.map((group) =>
        group.organization === null
          ? group.models.map((model) => <option key={model.id} value={model.id}>{model.name}</option>)
          : (
            <optgroup key={group.organization} label={group.organization}>
              {group.models.map((model) => <option key={model.id} value={model.id}>{model.name}</option>)}
            </optgroup>
          )
      )}
    </select>
  );
}
