import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { ProviderError } from "../../errors.ts";
import type { SettingsService } from "../../settings/service.ts";
import { openAiCompatibleChatModel } from "./openai_compatible.ts";
import type { ChatModel } from "./types.ts";
import type { ModelOverride } from "../../deps.ts";

export interface ProviderDeps {
  fetch?: typeof fetch;
}

function required(settings: SettingsService, key: string, providerName: string): string {
  const value = settings.value(key);
  if (!value) throw new ProviderError(`${providerName} is not configured: ${key} is not set.`);
  return value;
}

/** The chat model the instance settings describe, or a ProviderError saying what is missing. */
export function chatModelFromSettings(
  settings: SettingsService,
  deps: ProviderDeps = {},
  override: ModelOverride = { provider: null, model: null },
): ChatModel {
  const instanceProvider = settings.value("LLMProvider");
  const providerId = override.provider ?? instanceProvider;
  if (!providerId) {
    throw new ProviderError("No LLM provider is set. Choose one in Settings → LLM Preference.");
  }
  if (override.provider && override.provider !== instanceProvider) {
    // Providers keep one configuration each: a workspace may pick another only once it is set up.
    const entry = llmProvider(override.provider);
    if (!entry || entry.fields.length === 0) {
      throw new ProviderError(
        `The LLM provider ${override.provider} is not available in this version of Lectern.`,
      );
    }
  }
  const entry = llmProvider(providerId);
  switch (providerId) {
    case "generic-openai": {
      const name = entry?.name ?? providerId;
      return openAiCompatibleChatModel({
        providerId,
        baseURL: required(settings, "GenericOpenAiBasePath", name),
        apiKey: settings.value("GenericOpenAiKey"),
        modelId: override.model || required(settings, "GenericOpenAiModelPref", name),
        contextWindow: Number(required(settings, "GenericOpenAiTokenLimit", name)),
        maxTokens: Number(settings.value("GenericOpenAiMaxTokens") ?? 1024),
        fetch: deps.fetch,
      });
    }
    default:
      throw new ProviderError(`The LLM provider ${providerId} is not available in this version of Lectern.`);
  }
}

/** The context window of the configured model, or null when no usable provider is set. */
export function contextWindowFromSettings(settings: SettingsService): number | null {
  const providerId = settings.value("LLMProvider");
  const key = providerId ? llmProvider(providerId)?.tokenLimitKey : undefined;
  const value = key ? Number(settings.value(key)) : NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}
