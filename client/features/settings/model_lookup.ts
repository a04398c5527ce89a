import * as z from "zod";
import type { ModelLookup, SettingField } from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret } from "../../../shared/settings.ts";
import { api } from "../../lib/api.ts";

export const CustomModel = z.looseObject({
  id: z.string(),
  name: z.string(),
  organization: z.string().nullish(),
});
export type CustomModel = z.infer<typeof CustomModel>;
const CustomModelsAnswer = z.looseObject({
  models: z.array(CustomModel),
  error: z.string().nullish(),
});

/** The body of `POST /api/system/custom-models`. `apiKey: true` means "use the key the server has stored". */
export interface ModelLookupRequest {
  provider: string;
  apiKey?: string | true;
  basePath?: string;
  /** The row's `optionFields` (Bedrock's region, key id …); a saved secret still masked is sent as `true`. */
  options?: Record<string, string | true>;
}

/**
 * The provider's models (docs/api-compat.md#model-lookups); a failed lookup throws with the server's message.
 */
export async function fetchCustomModels(
  request: ModelLookupRequest,
  signal?: AbortSignal,
): Promise<CustomModel[]> {
  const answer = await api("/system/custom-models", { json: request, schema: CustomModelsAnswer, signal });
  if (answer.error) throw new Error(answer.error);
  return answer.models;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** What a lookup still waits for, or the request to send. */
export type LookupPlan =
  | { kind: "waiting"; for: "key" | "url" }
  | { kind: "ready"; request: ModelLookupRequest };

/**
 * Decides whether the model lookup can run with the form's current values: it waits for a
 * required API key, and for a base path that is a URL (containing `basePathMustContain` where the provider
 * needs it, e.g. LocalAI's "/v1"). A key still showing the saved mask is sent as `true`.
 */
export function planLookup(
  lookup: ModelLookup,
  fields: readonly SettingField[],
  values: Record<string, string>,
): LookupPlan {
  const request: ModelLookupRequest = { provider: lookup.provider };
  if (lookup.apiKeyField) {
    const key = (values[lookup.apiKeyField] ?? "").trim();
    const required = fields.find((field) => field.key === lookup.apiKeyField)?.required ?? false;
    if (!key && required) return { kind: "waiting", for: "key" };
    if (key) request.apiKey = isMaskedSecret(key) ? true : key;
  }
  if (lookup.basePathField) {
    const basePath = (values[lookup.basePathField] ?? "").trim().replace(/\/+$/, "");
    if (!basePath || !isHttpUrl(basePath)) return { kind: "waiting", for: "url" };
    if (lookup.basePathMustContain && !basePath.includes(lookup.basePathMustContain)) {
      return { kind: "waiting", for: "url" };
    }
    request.basePath = basePath;
  }
  const options = Object.entries(lookup.optionFields ?? {}).flatMap(([name, key]) => {
    const value = (values[key] ?? "").trim();
    return value ? [[name, isMaskedSecret(value) ? true : value] as const] : [];
  });
  if (options.length > 0) request.options = Object.fromEntries(options);
  return { kind: "ready", request };
}

export type ModelGroup = { organization: string | null; models: CustomModel[] };

/**
 * Models as the dropdown lists them: grouped by organization (in order of first appearance, each group sorted
 * by name) when any model names one; otherwise one ungrouped list in the server's order.
 */
export function groupModels(models: readonly CustomModel[]): ModelGroup[] {
  if (!models.some((model) => model.organization)) {
    return models.length > 0 ? [{ organization: null, models: [...models] }] : [];
  }
  const groups = new Map<string, CustomModel[]>();
  for (const model of models) {
    const organization = model.organization || "Other";
    const group = groups.get(organization) ?? [];
    group.push(model);
    groups.set(organization, group);
  }
  return [...groups].map(([organization, list]) => ({
    organization,
    models: list.toSorted((a, b) => a.name.localeCompare(b.name)),
  }));
}

/** What the model dropdown shows (ModelSelect). */
export type ModelListState =
  | { status: "waiting"; for: "key" | "url" }
  | { status: "loading" }
  | { status: "ready"; models: CustomModel[] }
  | { status: "failed"; error: string };

/** A finished lookup: the plan it ran for (as JSON) and its models or error. */
export type FetchedModels = { plan: string; models: CustomModel[]; error: string | null };

/**
 * The dropdown's state for the current plan: no lookup means an empty list; a plan still waiting says for what;
 * loading until the plan has settled and its own lookup (not an older one) has answered, or while inactive.
 */
export function modelListState(
  plan: LookupPlan | null,
  settledKey: string,
  fetched: FetchedModels | null,
  active: boolean,
): ModelListState {
  const planKey = JSON.stringify(plan);
  if (!plan) return { status: "ready", models: [] };
  if (plan.kind === "waiting") return { status: "waiting", for: plan.for };
  if (!active || planKey !== settledKey || fetched?.plan !== planKey) return { status: "loading" };
  if (fetched.error !== null) return { status: "failed", error: fetched.error };
  return { status: "ready", models: fetched.models };
}

/** The model the dropdown selects: the saved one while the server lists it, else the first listed (if any). */
export function selectedModel(groups: readonly ModelGroup[], saved: string): string | undefined {
  const listed = groups.some((group) => group.models.some((model) => model.id === saved));
  return listed ? saved : groups[0]?.models[0]?.id;
}
