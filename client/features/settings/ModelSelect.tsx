import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ModelLookup, SettingField } from "../../../shared/providers/llm_catalog.ts";
import {
  type CustomModel,
  fetchCustomModels,
  groupModels,
  type LookupPlan,
  planLookup,
} from "./model_lookup.ts";
import { useDebounced } from "./use_debounced.ts";

export type ModelListState =
  | { status: "waiting"; for: "key" | "url" }
  | { status: "loading" }
  | { status: "ready"; models: CustomModel[] }
  | { status: "failed"; error: string };

type Fetched = { plan: string; models: CustomModel[]; error: string | null };

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
  const [fetched, setFetched] = useState<Fetched | null>(null);

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

  if (!plan) return { status: "ready", models: [] };
  if (plan.kind === "waiting") return { status: "waiting", for: plan.for };
  if (!active || planKey !== settledKey || fetched?.plan !== planKey) return { status: "loading" };
  if (fetched.error !== null) return { status: "failed", error: fetched.error };
  return { status: "ready", models: fetched.models };
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
  const first = groups[0]?.models[0]?.id;
  const listed = groups.some((group) => group.models.some((model) => model.id === value));

  // The saved model is preselected; when the server no longer lists it, the first model is chosen instead.
  useEffect(() => {
    if (!fixed && first !== undefined && !listed) onChange(first);
  }, [fixed, first, listed]);

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
      value={listed ? value : first}
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
