import * as z from "zod";
import { type FieldCheck, LLM_PROVIDERS, llmProvider, type SettingField } from "./providers/llm_catalog.ts";
import {
  embedder,
  EMBEDDING_ENGINE_IDS,
  isSelectableEmbedder,
  VECTOR_DBS,
} from "./providers/embedder_catalog.ts";
import { AUDIO_SETTINGS, type AudioCheck } from "./providers/audio_catalog.ts";
import { RERANKER_ENV, RERANKER_SETTINGS, RERANKERS } from "./providers/reranker_catalog.ts";
import {
  mappingSchema,
  OIDC_DEFAULTS,
  OIDC_ENV,
  OIDC_SETTINGS,
  parseRoleMapping,
  parseWorkspaceMapping,
} from "./oidc.ts";

/** What a stored secret looks like in every answer and in the forms (20 asterisks). */
export const MASKED_SECRET = "*".repeat(20);

/** A value the forms send back for a secret they did not change. */
export function isMaskedSecret(value: string): boolean {
  return /^\*{6,}$/.test(value);
}

const url = z.string().trim().refine((value) => {
  try {
    const parsed = new URL(value);
    return parsed.protocol === "http:" || parsed.protocol === "https:";
  } catch {
    return false;
  }
}, "URL is not a valid URL.").transform((value) => value.replace(/\/+$/, ""));

const notEmpty = z.string().trim().min(1, "Value cannot be empty");
const positiveInteger = z.string().trim().regex(/^\d+$/, "Value must be a whole number.").refine(
  (value) => Number(value) > 0,
  "Value must be greater than zero",
).transform((value) => String(Number(value)));
const anyText = z.string().trim();
const startsWith = (prefix: string, message: string) =>
  z.string().trim().refine((value) => value.startsWith(prefix), message);
const urlWithV1 = url.refine((value) => value.includes("/v1"), "URL must contain /v1.");
const wholeNumber = z.string().trim().regex(/^-?\d+$/, "Value must be a whole number.").transform((value) =>
  String(Number(value))
);
const oneOf = (values: readonly string[]) =>
  z.string().trim().refine((value) => values.includes(value), `Value must be one of ${values.join(", ")}`);
const yesNo = z.string().trim().toLowerCase().refine(
  (value) => value === "true" || value === "false",
  "Value must be true or false.",
);

const llmProviderId = z.string().trim().superRefine((value, context) => {
  if (!llmProvider(value)) {
    context.addIssue({ code: "custom", message: `${value} is not a valid LLM provider.` });
  }
});
const embeddingEngineId = z.string().trim().superRefine((value, context) => {
  const entry = embedder(value);
  if (!(EMBEDDING_ENGINE_IDS as readonly string[]).includes(value) || !entry) {
    context.addIssue({ code: "custom", message: `${value} is not a supported embedding engine.` });
  } else if (!isSelectableEmbedder(entry)) {
    context.addIssue({ code: "custom", message: `${value} is not available in this version of Lectern.` });
  }
});
const vectorDbId = z.string().trim().superRefine((value, context) => {
  const entry = VECTOR_DBS.find((database) => database.id === value);
  if (!entry) context.addIssue({ code: "custom", message: `${value} is not a supported vector database.` });
  else if (!entry.builtIn) {
    context.addIssue({ code: "custom", message: `${value} is not available in this version of Lectern.` });
  }
});

export interface SettingDefinition {
  /** The update-env key. */
  key: string;
  /** The environment variable an operator sets to fix the value (it then wins and the UI shows it locked). */
  env: string;
  /** Secrets are stored encrypted and never returned: answers show `true`/`false` or 20 asterisks. */
  secret: boolean;
  /** Validates and normalises a submitted value; an empty string clears a setting that is not required. */
  schema: z.ZodType<string, string>;
  defaultValue?: string;
}

/**
 * A setting's definition. Its check is built on first use (`schema` reads as a property): the list below holds
 * about 140 settings, and zod schemas built for all of them at load cost every start (and every page that loads
 * this module) time and memory, when only the settings being changed, or set in the environment, are checked.
 */
const setting = (
  key: string,
  env: string,
  schema: () => z.ZodType<string, string>,
  options: { secret?: boolean; defaultValue?: string } = {},
): SettingDefinition => {
  let built: z.ZodType<string, string> | undefined;
  return {
    key,
    env,
    get schema() {
      return built ??= schema();
    },
    secret: options.secret ?? false,
    defaultValue: options.defaultValue,
  };
};

const atLeast = (min: number) =>
  z.string().trim().regex(/^\d+$/, "Value must be a whole number.").refine(
    (value) => Number(value) >= min,
    `Value must be at least ${min}.`,
  ).transform((value) => String(Number(value)));

const CHECKS: Record<Exclude<FieldCheck, { startsWith: string }>, z.ZodType<string, string>> = {
  url,
  urlWithV1,
  notEmpty,
  anyText,
  wholeNumber,
};

/**
 * A provider field's check: the one it names, else by its type: a number at least `min` (1), a select one of
 * its options, a URL a URL, a required value not empty. An optional value may be cleared.
 */
export function schemaOf(field: SettingField): z.ZodType<string, string> {
  const check = field.check;
  let schema: z.ZodType<string, string>;
  if (typeof check === "object") schema = startsWith(check.startsWith, check.message);
  else if (check) schema = CHECKS[check];
  else if (field.type === "number") {
    schema = field.min && field.min > 1 ? atLeast(field.min) : positiveInteger;
  } else if (field.type === "select" && field.options) {
    schema = oneOf(field.options.map((option) => option.value));
  } else if (field.type === "url") schema = url;
  else schema = field.required ? notEmpty : anyText;
  return field.required || check === "anyText" ? schema : orEmpty(schema);
}

/** An optional value: empty clears it, anything else passes `schema` (its own message when it does not). */
const orEmpty = (schema: z.ZodType<string, string>): z.ZodType<string, string> =>
  z.string().transform((value, context) => {
    if (value.trim() === "") return "";
    const checked = schema.safeParse(value);
    if (checked.success) return checked.data;
    context.addIssue({ code: "custom", message: checked.error.issues[0]?.message ?? "Invalid value" });
    return z.NEVER;
  });

/** The update-env keys of a provider row: each field with its environment variable, check and secrecy. */
export function settingsOfFields(fields: readonly SettingField[]): SettingDefinition[] {
  return fields.filter((field) => field.env).map((field) =>
    setting(field.key, field.env!, () => schemaOf(field), {
      secret: field.type === "password",
      defaultValue: field.defaultValue,
    })
  );
}

/** Definitions in order, the first of a key kept (providers share some: CohereApiKey, the LiteLLM keys). */
function unique(definitions: readonly SettingDefinition[]): SettingDefinition[] {
  const seen = new Set<string>();
  return definitions.filter((definition) => !seen.has(definition.key) && seen.add(definition.key));
}

/**
 * Every instance setting this version accepts through `POST /api/system/update-env`: the LLM provider and
 * every field of every row of the provider table (shared/providers/llm_catalog.ts), then the rest.
 */
export const SETTING_KEYS: SettingDefinition[] = unique([
  setting("LLMProvider", "LLM_PROVIDER", () => llmProviderId),
  ...LLM_PROVIDERS.flatMap((provider) => settingsOfFields(provider.fields)),
  setting("EmbeddingEngine", "EMBEDDING_ENGINE", () => embeddingEngineId, { defaultValue: "native" }),
  setting("EmbeddingBasePath", "EMBEDDING_BASE_PATH", () => url),
  setting("EmbeddingModelPref", "EMBEDDING_MODEL_PREF", () => notEmpty),
  setting("GenericOpenAiEmbeddingApiKey", "GENERIC_OPEN_AI_EMBEDDING_API_KEY", () => anyText, {
    secret: true,
  }),
  setting(
    "EmbeddingModelMaxChunkLength",
    "EMBEDDING_MODEL_MAX_CHUNK_LENGTH",
    () => positiveInteger.or(z.literal("")),
  ),
  setting(
    "GenericOpenAiEmbeddingMaxConcurrentChunks",
    "GENERIC_OPEN_AI_EMBEDDING_MAX_CONCURRENT_CHUNKS",
    () => positiveInteger.or(z.literal("")),
  ),
  setting("AzureOpenAiEmbeddingModelPref", "AZURE_OPENAI_EMBEDDING_MODEL_PREF", () => notEmpty),
  setting("VoyageAiApiKey", "VOYAGEAI_API_KEY", () => notEmpty, { secret: true }),
  setting("VectorDB", "VECTOR_DB", () => vectorDbId),
  setting("ChromaEndpoint", "CHROMA_ENDPOINT", () => url),
  setting("ChromaApiHeader", "CHROMA_API_HEADER", () => anyText),
  setting("ChromaApiKey", "CHROMA_API_KEY", () => anyText, { secret: true }),
  ...VECTOR_DBS.flatMap((database) => settingsOfFields(database.fields)),
  // The reranker of accuracy-optimized search (shared/providers/reranker_catalog.ts); the local one by default.
  setting(
    RERANKER_SETTINGS.provider,
    RERANKER_ENV.provider,
    () =>
      z.string().trim().superRefine((value, context) => {
        if (!RERANKERS.some((entry) => entry.id === value)) {
          context.addIssue({ code: "custom", message: `${value} is not a supported reranker.` });
        }
      }),
    { defaultValue: "native" },
  ),
  setting(RERANKER_SETTINGS.model, RERANKER_ENV.model, () => anyText),
  setting(RERANKER_SETTINGS.basePath, RERANKER_ENV.basePath, () => orEmpty(url)),
  setting(RERANKER_SETTINGS.apiKey, RERANKER_ENV.apiKey, () => anyText, { secret: true }),
  // The agents' web search (server/agents/skills/web_search.ts).
  setting("AgentSearXNGApiUrl", "AGENT_SEARXNG_API_URL", () => orEmpty(url)),
  setting("AgentTavilyApiKey", "AGENT_TAVILY_API_KEY", () => anyText, { secret: true }),
  setting("AgentBraveApiKey", "AGENT_BRAVE_API_KEY", () => anyText, { secret: true }),
  // OpenID Connect login (server/oidc/): Settings → Security.
  setting(OIDC_SETTINGS.enabled, OIDC_ENV.enabled, () => yesNo, { defaultValue: "false" }),
  setting(OIDC_SETTINGS.issuer, OIDC_ENV.issuer, () => orEmpty(url)),
  setting(OIDC_SETTINGS.clientId, OIDC_ENV.clientId, () => anyText),
  setting(OIDC_SETTINGS.clientSecret, OIDC_ENV.clientSecret, () => anyText, { secret: true }),
  setting(OIDC_SETTINGS.scopes, OIDC_ENV.scopes, () => notEmpty, { defaultValue: OIDC_DEFAULTS.scopes }),
  setting(OIDC_SETTINGS.usernameClaim, OIDC_ENV.usernameClaim, () => notEmpty, {
    defaultValue: OIDC_DEFAULTS.usernameClaim,
  }),
  setting(OIDC_SETTINGS.groupsClaim, OIDC_ENV.groupsClaim, () => anyText),
  setting(OIDC_SETTINGS.roleMapping, OIDC_ENV.roleMapping, () => mappingSchema(parseRoleMapping)),
  setting(
    OIDC_SETTINGS.workspaceMapping,
    OIDC_ENV.workspaceMapping,
    () => mappingSchema(parseWorkspaceMapping),
  ),
  setting(OIDC_SETTINGS.autoCreateUsers, OIDC_ENV.autoCreateUsers, () => yesNo, { defaultValue: "true" }),
  setting(OIDC_SETTINGS.linkExistingUsers, OIDC_ENV.linkExistingUsers, () => yesNo, {
    defaultValue: "false",
  }),
  setting(OIDC_SETTINGS.buttonLabel, OIDC_ENV.buttonLabel, () => anyText),
  setting(OIDC_SETTINGS.passwordLoginDisabled, OIDC_ENV.passwordLoginDisabled, () => yesNo, {
    defaultValue: "false",
  }),
  ...AUDIO_SETTINGS.map((entry) =>
    setting(entry.key, entry.env, () => audioSchema(entry.check), {
      secret: entry.secret,
      defaultValue: entry.defaultValue,
    })
  ),
]);

/** The zod check of a speech setting (shared/providers/audio_catalog.ts keeps them as data). */
function audioSchema(check: AudioCheck): z.ZodType<string, string> {
  switch (check.kind) {
    case "url":
      return url;
    case "notEmpty":
      return notEmpty;
    case "any":
      return anyText;
    case "prefix":
      return startsWith(check.prefix, check.message);
    case "oneOf":
      return z.string().trim().superRefine((value, context) => {
        if (!check.values.includes(value)) {
          context.addIssue({ code: "custom", message: check.message(value) });
        }
      });
  }
}

export function settingDefinition(key: string): SettingDefinition | undefined {
  return SETTING_KEYS.find((definition) => definition.key === key);
}
