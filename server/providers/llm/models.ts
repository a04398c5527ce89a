import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret } from "../../../shared/settings.ts";
import type { SettingsService } from "../../settings/service.ts";
import { AppError, messageOf } from "../../errors.ts";
import { guardedFetch } from "../../http/url_guard.ts";
import { OPENAI_BASE_URL, type ProviderDeps } from "../endpoints.ts";

export interface ModelInfo {
  id: string;
  name: string;
  organization?: string;
}

export interface ModelLookupInput {
  provider?: unknown;
  apiKey?: unknown;
  basePath?: unknown;
}

const LOOKUP_TIMEOUT_MS = 10_000;
const OPENAI_CHAT = /(^gpt|^o\d|^chatgpt|^ft:)/;
const OPENAI_NOT_CHAT =
  /(embedding|tts|whisper|dall-e|audio|realtime|transcribe|image|moderation|search|instruct)/;

/** The key to use: the one typed in, or the stored one when the form sends `true` or the mask. */
/** The key given with the lookup; else the stored one, where it may be used (`storedAllowed`). */
function keyFor(
  settings: SettingsService,
  field: string | undefined,
  given: unknown,
  storedAllowed: boolean,
): string | undefined {
  if (typeof given === "string" && given && !isMaskedSecret(given)) return given;
  return field && storedAllowed ? settings.value(field) : undefined;
}

const trimBase = (url: string) => url.trim().replace(/\/+$/, "");

/**
 * GETs a model list. A base path the admin typed goes through the URL guard (`guarded`: private and loopback
 * addresses allowed, as for the admin's own Ollama, special ones refused, the checked address connected to);
 * the hosted providers' fixed addresses are fetched as they are.
 */
async function getJson(
  url: string,
  headers: Record<string, string>,
  options: { deps: ProviderDeps; signal?: AbortSignal; guarded?: boolean },
) {
  const timeout = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  const init = { headers, signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout };
  const response = options.guarded
    ? await guardedFetch(url, init, { allowPrivate: true, fetch: options.deps.fetch })
    : await (options.deps.fetch ?? fetch)(url, init);
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  if (!response.ok) {
    const error = body.error as { message?: string } | string | undefined;
    const message = typeof error === "string" ? error : error?.message;
    throw new Error(`${response.status} ${message ?? (text.slice(0, 200) || response.statusText)}`);
  }
  return body;
}

const idsOf = (
  body: Record<string, unknown>,
  list = "data",
) => (Array.isArray(body[list]) ? body[list] as Record<string, unknown>[] : []);

/**
 * `POST /api/system/custom-models`: the provider's models (docs/api-compat.md#model-lookups). The key given
 * is used for this lookup only, never stored. A base path goes through the URL guard; an admin's own LLM
 * server may be on loopback or the LAN.
 */
export async function lookupModels(
  settings: SettingsService,
  input: ModelLookupInput,
  deps: ProviderDeps = {},
  signal?: AbortSignal,
): Promise<ModelInfo[]> {
  const provider = typeof input.provider === "string" ? input.provider : "";
  const entry = llmProvider(provider);
  if (!entry?.lookup && provider !== "generic-openai") {
    throw new AppError("invalid_input", "Invalid provider for custom models", {
      body: { models: [], error: "Invalid provider for custom models" },
    });
  }
  const lookup = entry?.lookup;
  const basePathField = lookup?.basePathField ??
    (provider === "generic-openai" ? "GenericOpenAiBasePath" : undefined);
  const givenBase = typeof input.basePath === "string" && input.basePath.trim()
    ? trimBase(input.basePath)
    : undefined;
  const storedBase = basePathField ? settings.value(basePathField) : undefined;
  const basePath = givenBase ?? storedBase;
  // A stored key only ever goes to the base URL it was saved with: a lookup at another address must bring
  // its own key, or the caller could send the instance's key to a server of their choosing.
  const sameBase = givenBase === undefined ||
    (storedBase !== undefined && givenBase === trimBase(storedBase));
  const apiKey = keyFor(
    settings,
    lookup?.apiKeyField ?? (provider === "generic-openai" ? "GenericOpenAiKey" : undefined),
    input.apiKey,
    !basePathField || sameBase,
  );
  const fail = (message: string) =>
    new AppError("provider_failed", message, { body: { models: [], error: message } });
  const bearer: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};

  try {
    switch (provider) {
      case "openai": {
        if (!apiKey) return [];
        const body = await getJson(`${deps.endpoints?.openai ?? OPENAI_BASE_URL}/models`, bearer, {
          deps,
          signal,
        });
        return idsOf(body).map((model) => String(model.id))
          .filter((id) => OPENAI_CHAT.test(id) && !OPENAI_NOT_CHAT.test(id)).sort()
          .map((id) => ({ id, name: id, organization: id.startsWith("ft:") ? "Your Fine-Tunes" : "OpenAi" }));
      }
      case "anthropic": {
        if (!apiKey) return [];
        const base = deps.endpoints?.anthropic ?? "https://api.anthropic.com";
        const body = await getJson(
          `${base}/v1/models?limit=100`,
          { "x-api-key": apiKey, "anthropic-version": "2023-06-01" },
          { deps, signal },
        );
        return idsOf(body).map((model) => ({
          id: String(model.id),
          name: String(model.display_name ?? model.id),
        }));
      }
      default: {
        if (!basePath) return [];
        if (lookup?.basePathMustContain && !basePath.includes(lookup.basePathMustContain)) return [];
        const options = { deps, signal, guarded: true };
        if (provider === "ollama") {
          const body = await getJson(`${basePath}/api/tags`, bearer, options);
          return idsOf(body, "models").map((model) => ({ id: String(model.name), name: String(model.name) }));
        }
        const body = await getJson(`${basePath}/models`, bearer, options);
        return idsOf(body).map((model) => ({
          id: String(model.id),
          name: String(model.id),
          organization: typeof model.owned_by === "string" ? model.owned_by : undefined,
        }));
      }
    }
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_input") throw fail(error.message);
    throw fail(`${entry?.name ?? provider} @ ${basePath ?? "its API"} did not answer: ${messageOf(error)}`);
  }
}
