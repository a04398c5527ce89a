import {
  llmProviderByLookup,
  type LlmProviderEntry,
  type ModelListing,
} from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret } from "../../../shared/settings.ts";
import type { SettingsService } from "../../settings/service.ts";
import { AppError, messageOf, ProviderError } from "../../errors.ts";
import { guardedFetch } from "../../http/url_guard.ts";
import type { ProviderDeps } from "../endpoints.ts";
import { openAiBaseUrl } from "./registry.ts";
import type { ModelInfo } from "./types.ts";
import { listNativeModels, nativeModelsDirectory } from "./native_llm/models.ts";
import { geminiModels } from "./gemini.ts";
import { cohereModels } from "./cohere.ts";
import { bedrockModels } from "./bedrock.ts";
import { asSentence } from "./wire.ts";

export type { ModelInfo } from "./types.ts";

export interface ModelLookupInput {
  provider?: unknown;
  apiKey?: unknown;
  basePath?: unknown;
  /** The lookup's further values (Bedrock's region, key id …), named by the row's `lookup.optionFields`. */
  options?: unknown;
}

const LOOKUP_TIMEOUT_MS = 10_000;

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

const text = (
  value: unknown,
) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
const capitalised = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** The models of an OpenAI-style list, read as the provider's row says (filters, id, name, organization). */
export function modelsOfList(
  listing: Extract<ModelListing, { source: "openai" }>,
  body: Record<string, unknown>,
): ModelInfo[] {
  // Together AI answers with a bare array; everyone else with `{data: [...]}`.
  const rows = Array.isArray(body) ? body as Record<string, unknown>[] : idsOf(body);
  const pattern = listing.idPattern ? new RegExp(listing.idPattern) : null;
  const models = rows.filter((row) => {
    if (!listing.only) return true;
    const value = text(row[listing.only.field]);
    return listing.only.values.some((wanted) => value.includes(wanted));
  }).map((row) => {
    const id = (listing.id ?? ["id"]).map((field) => text(row[field])).join("/");
    const name = (listing.name ?? []).map((field) => text(row[field])).find(Boolean) || id;
    const organization = organizationOf(listing, row, id);
    return { id, name, ...(organization ? { organization } : {}) };
  }).filter((model) =>
    model.id !== "" && (!pattern || pattern.test(model.id)) &&
    !(listing.exclude ?? []).some((part) => model.id.includes(part))
  );
  return listing.sort ? models.sort((a, b) => a.id.localeCompare(b.id)) : models;
}

function organizationOf(
  listing: Extract<ModelListing, { source: "openai" }>,
  row: Record<string, unknown>,
  id: string,
): string | undefined {
  const rule = listing.organization;
  if (!rule) return undefined;
  if (rule === "idPrefix") return capitalised(id.split("/")[0]);
  if ("field" in rule) return text(row[rule.field]) || rule.fallback;
  const prefix = Object.keys(rule.byPrefix ?? {}).find((start) => id.startsWith(start));
  return prefix ? rule.byPrefix![prefix] : rule.fixed;
}

/** The lookups of the providers with a protocol of their own (`listing: {source: "native"}`). */
type NativeLister = (
  input: {
    apiKey?: string;
    basePath?: string;
    bearer: Record<string, string>;
    /** The row's `optionFields`, each the value given with the lookup or else the stored one. */
    values: Record<string, string | undefined>;
  },
  options: { deps: ProviderDeps; signal?: AbortSignal; guarded?: boolean },
) => Promise<ModelInfo[]>;
const NATIVE_LISTERS: Record<string, NativeLister> = {
  // The hosted vendors' fixed addresses (tests: `deps.endpoints[<id>]`, a loopback fake); the adapters' own
  // failures name the provider.
  gemini: ({ apiKey }, { deps, signal }) =>
    geminiModels({ apiKey, baseURL: deps.endpoints?.gemini, fetch: deps.fetch, signal }),
  cohere: ({ apiKey }, { deps, signal }) =>
    cohereModels({ apiKey, baseURL: deps.endpoints?.cohere, fetch: deps.fetch, signal }),
  bedrock: ({ apiKey, values }, { deps, signal }) =>
    bedrockModels({
      connectionMethod: values.connectionMethod === "sessionToken" ? "sessionToken" : "iam",
      accessKeyId: values.accessKeyId,
      secretAccessKey: apiKey,
      sessionToken: values.sessionToken,
      region: values.region,
      endpoint: deps.endpoints?.bedrock,
      fetch: deps.fetch,
      signal,
    }),
  anthropic: async ({ apiKey }, options) => {
    if (!apiKey) return [];
    const base = options.deps.endpoints?.anthropic ?? "https://api.anthropic.com";
    const body = await getJson(
      `${base}/v1/models?limit=100`,
      { "x-api-key": apiKey, "anthropic-version": "2023-06-01" },
      { ...options, guarded: false },
    );
    return idsOf(body).map((model) => ({
      id: String(model.id),
      name: String(model.display_name ?? model.id),
    }));
  },
  native: async (_input, options) =>
    options.deps.modelsDir ? await listNativeModels(nativeModelsDirectory(options.deps.modelsDir)) : [],
  ollama: async ({ basePath, bearer }, options) => {
    if (!basePath) return [];
    const body = await getJson(`${basePath}/api/tags`, bearer, options);
    return idsOf(body, "models").map((model) => ({ id: String(model.name), name: String(model.name) }));
  },
};

/**
 * `POST /api/system/custom-models`: the provider's models (docs/api-compat.md#model-lookups), read as its row
 * of the provider table says. The key given is used for this lookup only, never stored. A base path the admin
 * typed goes through the URL guard; an admin's own LLM server may be on loopback or the LAN.
 */
export async function lookupModels(
  settings: SettingsService,
  input: ModelLookupInput,
  deps: ProviderDeps = {},
  signal?: AbortSignal,
): Promise<ModelInfo[]> {
  const provider = typeof input.provider === "string" ? input.provider : "";
  const entry: LlmProviderEntry | undefined = provider ? llmProviderByLookup(provider) : undefined;
  const listing = entry?.listing;
  const lister = entry && listing?.source === "native" ? NATIVE_LISTERS[entry.id] : undefined;
  if (!entry?.lookup || !listing || (listing.source === "native" && !lister)) {
    throw new AppError("invalid_input", "Invalid provider for custom models", {
      body: { models: [], error: "Invalid provider for custom models" },
    });
  }
  const lookup = entry.lookup;
  const basePathField = lookup.basePathField;
  const givenBase = typeof input.basePath === "string" && input.basePath.trim()
    ? trimBase(input.basePath)
    : undefined;
  const storedBase = basePathField ? settings.value(basePathField) : undefined;
  const basePath = basePathField ? givenBase ?? storedBase : undefined;
  // A stored key only ever goes to the base URL it was saved with: a lookup at another address must bring
  // its own key, or the caller could send the instance's key to a server of their choosing.
  const sameBase = givenBase === undefined ||
    (storedBase !== undefined && givenBase === trimBase(storedBase));
  const apiKey = keyFor(settings, lookup.apiKeyField, input.apiKey, !basePathField || sameBase);
  const fail = (message: string) =>
    new AppError("provider_failed", message, { body: { models: [], error: message } });
  const bearer: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
  const where = basePath ?? "its API";
  // The further values go only to the provider's fixed address, so the stored ones may be used.
  const given = typeof input.options === "object" && input.options !== null
    ? input.options as Record<string, unknown>
    : {};
  const values = Object.fromEntries(
    Object.entries(lookup.optionFields ?? {}).map(([name, field]) => [
      name,
      keyFor(settings, field, given[name], !basePathField),
    ]),
  );

  try {
    if (listing.source === "static") return listing.models.map((model) => ({ ...model }));
    if (basePathField && !basePath) return [];
    if (basePath && lookup.basePathMustContain && !basePath.includes(lookup.basePathMustContain)) return [];
    // The admin's own servers go through the URL guard; the hosted vendors' fixed addresses as they are.
    const options = { deps, signal, guarded: Boolean(basePathField) };
    if (lister) return await lister({ apiKey, basePath, bearer, values }, options);
    if (listing.source !== "openai") return [];
    if (listing.needsKey && !apiKey) return [];
    const connection = entry.openai ?? {};
    const base = basePathField
      ? `${basePath}${connection.baseUrlSuffix ?? ""}`
      : openAiBaseUrl(entry, connection, (key) => settings.value(key), deps);
    if (!base) return [];
    const headers = { ...connection.headers, ...(listing.anonymous ? {} : bearer) };
    return modelsOfList(listing, await getJson(`${base}/models`, headers, options));
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_input") throw fail(error.message);
    // An adapter's own failure already names the provider and what went wrong.
    if (error instanceof ProviderError) throw fail(asSentence(error.message));
    throw fail(`${entry.name} @ ${where} did not answer: ${messageOf(error)}`);
  }
}
