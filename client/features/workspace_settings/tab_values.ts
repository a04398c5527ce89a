import { DEFAULT_REFUSAL, DEFAULT_SYSTEM_PROMPT, type Workspace } from "../../../shared/api/workspaces.ts";
import {
  fieldApplies,
  isModelField,
  LLM_PROVIDERS,
  llmProvider,
} from "../../../shared/providers/llm_catalog.ts";
import type { WorkspaceChanges } from "./api.ts";
import { orNull } from "./types.ts";

/** The provider value that stands for the instance's own LLM: the server stores it as null. */
export const INSTANCE_LLM = "default";

/** Chat history is recommended at 20; more than 45 is likely to fail. */
export const HISTORY_WARNING_ABOVE = 45;

/** The similarity threshold options, from the strictest. */
export const THRESHOLDS = [
  { key: "high", value: 0.75 },
  { key: "medium", value: 0.5 },
  { key: "low", value: 0.25 },
  { key: "none", value: 0 },
] as const;

/** The option a stored threshold falls under (a value set elsewhere, such as 0.3, reads as low). */
export function thresholdOption(value: number): string {
  return String(THRESHOLDS.find((threshold) => value >= threshold.value)?.value ?? 0);
}

/**
 * The choices of a model override: the instance's LLM, then the catalog's providers that can be set up in this
 * version (those with settings fields). A provider saved earlier stays listed so the form shows what is stored.
 */
export function providerOptions(
  saved: string | null,
  instanceLabel: string,
  configured: readonly string[] | null = null,
): { value: string; label: string }[] {
  const usable = LLM_PROVIDERS.filter((provider) =>
    provider.id === saved || (provider.fields.length > 0 && (!configured || configured.includes(provider.id)))
  );
  const options = [{ value: INSTANCE_LLM, label: instanceLabel }];
  options.push(...usable.map((provider) => ({ value: provider.id, label: provider.name })));
  if (saved && !llmProvider(saved)) options.push({ value: saved, label: saved });
  return options;
}

/**
 * The providers the instance has set up, from the saved settings (`setup-complete`): every required field
 * that is not the model or a limit has a value (a saved secret reads `true`). A workspace can only use those.
 */
export function configuredProviders(results: Readonly<Record<string, unknown>>): string[] {
  const has = (key: string) => {
    const value = results[key];
    return value === true || (typeof value === "string" && value !== "") || typeof value === "number";
  };
  const value = (key: string) => (typeof results[key] === "string" ? results[key] as string : undefined);
  return LLM_PROVIDERS.filter((provider) =>
    provider.fields.length > 0 &&
    provider.fields.every((field) =>
      !field.required || isModelField(field) || !fieldApplies(field, value) || has(field.key) ||
      field.defaultValue !== undefined
    )
  ).map((provider) => provider.id);
}

/**
 * The workspace's own text, or "" when it has none: the field then stays empty with the default as its
 * placeholder, and saving it untouched stores null. A new workspace is stored with the default prompt's text
 * (the instance's default, else the built-in one), which is not a prompt of its own either.
 */
export function ownText(stored: string | null, defaults: readonly (string | null)[]): string {
  if (stored === null) return "";
  const text = stored.trim();
  return defaults.some((value) => value !== null && value.trim() === text) ? "" : stored;
}

/** The chat tab's values; `instancePrompt` is the instance's default system prompt, null until it is known. */
export function chatValuesOf(workspace: Workspace, instancePrompt: string | null) {
  return {
    mode: workspace.chatMode === "query" ? "query" : "chat",
    history: String(workspace.openAiHistory),
    prompt: ownText(workspace.openAiPrompt, [DEFAULT_SYSTEM_PROMPT, instancePrompt]),
    refusal: ownText(workspace.queryRefusalResponse, [DEFAULT_REFUSAL]),
    temperature: workspace.openAiTemp === null ? "" : String(workspace.openAiTemp),
    provider: workspace.chatProvider ?? INSTANCE_LLM,
    model: workspace.chatModel ?? "",
  };
}
export type ChatValues = ReturnType<typeof chatValuesOf>;

/** What the chat tab saves: blank texts as null (the default applies); the instance's LLM takes no model. */
export function chatChanges(values: ChatValues): WorkspaceChanges {
  const usesInstance = values.provider === INSTANCE_LLM;
  return {
    chatMode: values.mode,
    openAiHistory: values.history.trim(),
    openAiPrompt: orNull(values.prompt),
    queryRefusalResponse: orNull(values.refusal),
    openAiTemp: orNull(values.temperature.trim()),
    // "default" clears the provider and the model on the server.
    chatProvider: values.provider,
    ...(usesInstance ? {} : { chatModel: orNull(values.model.trim()) }),
  };
}

/** Whether the history field holds more messages than are likely to work. */
export function historyTooLong(history: string): boolean {
  return history.trim() !== "" && Number(history) > HISTORY_WARNING_ABOVE;
}

/** The agent tab's values. */
export function agentValuesOf(workspace: Workspace) {
  return { provider: workspace.agentProvider ?? INSTANCE_LLM, model: workspace.agentModel ?? "" };
}

/** What the agent tab saves: the instance's LLM is stored as no provider and no model. */
export function agentChanges(values: ReturnType<typeof agentValuesOf>): WorkspaceChanges {
  const usesInstance = values.provider === INSTANCE_LLM;
  return { agentProvider: values.provider, agentModel: usesInstance ? null : orNull(values.model.trim()) };
}

/** The vector tab's values. */
export function vectorValuesOf(workspace: Workspace) {
  return {
    topN: String(workspace.topN),
    threshold: thresholdOption(workspace.similarityThreshold),
    hybrid: workspace.hybridSearch,
    /** Follow-up questions rewritten with the conversation before the search. */
    rewrite: workspace.queryRewrite,
    /** The search preference: "default", or "rerank" (accuracy optimized). */
    searchMode: workspace.vectorSearchMode === "rerank" ? "rerank" : "default",
  };
}

/** What the vector tab saves (the server checks the numbers). */
export function vectorChanges(values: ReturnType<typeof vectorValuesOf>): WorkspaceChanges {
  return {
    topN: values.topN.trim(),
    similarityThreshold: values.threshold,
    hybridSearch: values.hybrid ? "true" : "false",
    queryRewrite: values.rewrite ? "true" : "false",
    vectorSearchMode: values.searchMode,
  };
}
