import type { AutoDetect, ModelLookup, ProviderKind, SettingField } from "./llm_catalog.ts";
import {
  type DataDestination,
  type DataHandling,
  EMBEDDER_RECEIVES,
  endpoint,
  THIS_MACHINE,
  VECTOR_DB_RECEIVES,
  vendor,
} from "./data_handling.ts";

/** The embedding engines the settings can name (the reference's list). */
export const EMBEDDING_ENGINE_IDS = [
  "native",
  "openai",
  "azure",
  "localai",
  "ollama",
  "lmstudio",
  "cohere",
  "voyageai",
  "litellm",
  "generic-openai",
] as const;
export type EmbeddingEngineId = (typeof EMBEDDING_ENGINE_IDS)[number];

export interface EmbedderEntry {
  id: EmbeddingEngineId;
  name: string;
  kind: ProviderKind;
  /** The settings form; an engine without a form and not built in cannot be chosen in this version. */
  fields: SettingField[];
  builtIn?: boolean;
  /** How the form lists the engine's models (a "model" field). */
  lookup?: ModelLookup;
  /** Where a local server usually listens, for endpoint auto-detect. */
  autoDetect?: AutoDetect;
  /** Runs on the user's own machine or network. */
  local?: boolean;
  /**
   * The largest chunk in characters when no EmbeddingModelMaxChunkLength is set; engines
   * with a fixed model family give theirs per model through `maxChunkLengthFor`.
   */
  defaultMaxChunkLength: number;
  /** What the engine is sent and where it goes (the privacy screen). */
  dataHandling: DataHandling;
}

const embeds = (destination: DataDestination, policyUrl?: string): DataHandling => ({
  receives: EMBEDDER_RECEIVES,
  destination,
  ...(policyUrl ? { policyUrl } : {}),
});
const stores = (destination: DataDestination, policyUrl?: string): DataHandling => ({
  receives: VECTOR_DB_RECEIVES,
  destination,
  ...(policyUrl ? { policyUrl } : {}),
});

/** The models the native engine runs inside Lectern. */
export interface NativeEmbeddingModel {
  id: string;
  name: string;
  dimensions: number;
  maxChunkLength: number;
  /** Built into the code; the others are model files under STORAGE_DIR/models/<id>/. */
  builtIn: boolean;
  /** Approximate download size in megabytes. */
  downloadMb?: number;
}

export const NATIVE_LEXICAL_MODEL = "lectern-lexical-v1";
export const NATIVE_NEURAL_MODEL = "Xenova/all-MiniLM-L6-v2";

export const NATIVE_EMBEDDING_MODELS: readonly NativeEmbeddingModel[] = [
  { id: NATIVE_LEXICAL_MODEL, name: "Lectern lexical", dimensions: 384, maxChunkLength: 1000, builtIn: true },
  {
    id: NATIVE_NEURAL_MODEL,
    name: "all-MiniLM-L6-v2",
    dimensions: 384,
    maxChunkLength: 1000,
    builtIn: false,
    downloadMb: 23,
  },
];

export function nativeEmbeddingModel(id: string | undefined): NativeEmbeddingModel {
  return NATIVE_EMBEDDING_MODELS.find((model) => model.id === id) ?? NATIVE_EMBEDDING_MODELS[0];
}

const options = (values: string[]) => values.map((value) => ({ value, label: value }));

const maxChunkField: SettingField = {
  key: "EmbeddingModelMaxChunkLength",
  type: "number",
  required: false,
  placeholder: "1000",
};

/** Voyage AI models and the longest chunk, in characters, each takes. */
const VOYAGE_MAX_CHUNK: Record<string, number> = {
  "voyage-3.5": 32000,
  "voyage-3.5-lite": 32000,
  "voyage-3-large": 32000,
  "voyage-3": 32000,
  "voyage-3-lite": 32000,
  "voyage-code-3": 32000,
  "voyage-finance-2": 32000,
  "voyage-multilingual-2": 32000,
  "voyage-law-2": 16000,
  "voyage-large-2-instruct": 16000,
  "voyage-large-2": 16000,
  "voyage-code-2": 16000,
  "voyage-2": 4000,
};

export const EMBEDDERS: readonly EmbedderEntry[] = [
  {
    id: "native",
    name: "Lectern Embedder",
    kind: "built-in",
    dataHandling: embeds(THIS_MACHINE),
    builtIn: true,
    defaultMaxChunkLength: 1000,
    fields: [{
      key: "EmbeddingModelPref",
      type: "select",
      required: false,
      defaultValue: NATIVE_LEXICAL_MODEL,
      options: NATIVE_EMBEDDING_MODELS.map((model) => ({ value: model.id, label: model.name })),
    }],
  },
  {
    id: "openai",
    name: "OpenAI",
    kind: "cloud",
    dataHandling: embeds(vendor("api.openai.com"), "https://openai.com/policies/privacy-policy/"),
    defaultMaxChunkLength: 8191,
    fields: [
      { key: "OpenAiKey", type: "password", required: true },
      {
        key: "EmbeddingModelPref",
        type: "select",
        required: true,
        defaultValue: "text-embedding-3-small",
        options: options(["text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002"]),
      },
    ],
  },
  {
    id: "azure",
    name: "Azure OpenAI",
    kind: "cloud",
    dataHandling: embeds(endpoint("AzureOpenAiEndpoint"), "https://privacy.microsoft.com/privacystatement"),
    defaultMaxChunkLength: 2048,
    fields: [
      {
        key: "AzureOpenAiEndpoint",
        type: "url",
        required: true,
        placeholder: "https://my-azure.openai.azure.com",
      },
      { key: "AzureOpenAiKey", type: "password", required: true },
      {
        key: "AzureOpenAiEmbeddingModelPref",
        type: "text",
        required: true,
        placeholder: "my-embedding-deployment",
      },
    ],
  },
  {
    id: "localai",
    name: "Local AI",
    kind: "local",
    dataHandling: embeds(endpoint("EmbeddingBasePath")),
    local: true,
    defaultMaxChunkLength: 1000,
    lookup: {
      provider: "localai",
      basePathField: "EmbeddingBasePath",
      apiKeyField: "LocalAiApiKey",
      basePathMustContain: "/v1",
    },
    autoDetect: { suffix: ":8080/v1" },
    fields: [
      { key: "EmbeddingBasePath", type: "url", required: true, placeholder: "http://localhost:8080/v1" },
      { key: "EmbeddingModelPref", type: "model", required: true },
      maxChunkField,
      { key: "LocalAiApiKey", type: "password", required: false },
    ],
  },
  {
    id: "ollama",
    name: "Ollama",
    kind: "local",
    dataHandling: embeds(endpoint("EmbeddingBasePath")),
    local: true,
    defaultMaxChunkLength: 1000,
    lookup: { provider: "ollama", basePathField: "EmbeddingBasePath" },
    autoDetect: { suffix: ":11434" },
    fields: [
      { key: "EmbeddingBasePath", type: "url", required: true, placeholder: "http://127.0.0.1:11434" },
      { key: "EmbeddingModelPref", type: "model", required: true },
      maxChunkField,
    ],
  },
  {
    id: "lmstudio",
    name: "LM Studio",
    kind: "local",
    dataHandling: embeds(endpoint("EmbeddingBasePath")),
    local: true,
    defaultMaxChunkLength: 1000,
    lookup: { provider: "lmstudio", basePathField: "EmbeddingBasePath" },
    autoDetect: { suffix: ":1234/v1" },
    fields: [
      { key: "EmbeddingBasePath", type: "url", required: true, placeholder: "http://localhost:1234/v1" },
      { key: "EmbeddingModelPref", type: "model", required: true },
      maxChunkField,
    ],
  },
  {
    id: "cohere",
    name: "Cohere",
    kind: "cloud",
    dataHandling: embeds(vendor("api.cohere.com"), "https://cohere.com/privacy"),
    defaultMaxChunkLength: 1945,
    fields: [
      { key: "CohereApiKey", type: "password", required: true },
      {
        key: "EmbeddingModelPref",
        type: "select",
        required: true,
        defaultValue: "embed-english-v3.0",
        options: options([
          "embed-english-v3.0",
          "embed-multilingual-v3.0",
          "embed-english-light-v3.0",
          "embed-multilingual-light-v3.0",
          "embed-v4.0",
        ]),
      },
    ],
  },
  {
    id: "voyageai",
    name: "Voyage AI",
    kind: "cloud",
    dataHandling: embeds(vendor("api.voyageai.com"), "https://www.voyageai.com/privacy"),
    defaultMaxChunkLength: 4000,
    fields: [
      { key: "VoyageAiApiKey", type: "password", required: true },
      {
        key: "EmbeddingModelPref",
        type: "select",
        required: true,
        defaultValue: "voyage-3.5-lite",
        options: options(Object.keys(VOYAGE_MAX_CHUNK)),
      },
    ],
  },
  {
    id: "litellm",
    name: "LiteLLM",
    kind: "self-hosted",
    dataHandling: embeds(endpoint("LiteLLMBasePath")),
    local: true,
    defaultMaxChunkLength: 1000,
    fields: [
      { key: "LiteLLMBasePath", type: "url", required: true, placeholder: "http://127.0.0.1:4000" },
      { key: "EmbeddingModelPref", type: "text", required: true, placeholder: "text-embedding-3-small" },
      maxChunkField,
      { key: "LiteLLMAPIKey", type: "password", required: false },
    ],
  },
  {
    id: "generic-openai",
    name: "Generic OpenAI",
    kind: "self-hosted",
    dataHandling: embeds(endpoint("EmbeddingBasePath")),
    defaultMaxChunkLength: 1000,
    fields: [
      { key: "EmbeddingBasePath", type: "url", required: true, placeholder: "https://api.example.com/v1" },
      { key: "GenericOpenAiEmbeddingApiKey", type: "password", required: false },
      { key: "EmbeddingModelPref", type: "text", required: true, placeholder: "text-embedding-3-small" },
      maxChunkField,
      {
        key: "GenericOpenAiEmbeddingMaxConcurrentChunks",
        type: "number",
        required: false,
        placeholder: "500",
      },
    ],
  },
];

export function embedder(id: string): EmbedderEntry | undefined {
  return EMBEDDERS.find((entry) => entry.id === id);
}

export function isSelectableEmbedder(entry: EmbedderEntry): boolean {
  return entry.builtIn === true || entry.fields.length > 0;
}

/**
 * The longest chunk, in characters, the engine's model takes
 * (docs/api-compat.md#splitting-and-chunk-headers): the native model's, Voyage's per model, the operator's
 * EmbeddingModelMaxChunkLength for servers that run any model, else the engine's.
 */
export function maxChunkLengthFor(
  engine: string,
  model: string | undefined,
  configured: number | undefined,
): number {
  const entry = embedder(engine);
  if (engine === "native") return nativeEmbeddingModel(model).maxChunkLength;
  if (engine === "voyageai") return VOYAGE_MAX_CHUNK[model ?? ""] ?? entry?.defaultMaxChunkLength ?? 4000;
  const takesSetting = entry?.fields.some((field) => field.key === "EmbeddingModelMaxChunkLength");
  if (takesSetting && configured !== undefined && Number.isFinite(configured) && configured > 0) {
    return configured;
  }
  return entry?.defaultMaxChunkLength ?? 1000;
}

/** Every update-env key an embedder's form uses, plus the engine choice itself. */
export const EMBEDDER_SETTING_KEYS: readonly string[] = [
  "EmbeddingEngine",
  ...new Set(EMBEDDERS.flatMap((entry) => entry.fields.map((field) => field.key))),
];

/** The vector databases the settings can name (the reference's list); LanceDB is the embedded one. */
export const VECTOR_DB_IDS = [
  "lancedb",
  "chroma",
  "pinecone",
  "qdrant",
  "weaviate",
  "milvus",
  "zilliz",
  "astra",
] as const;
export type VectorDbId = (typeof VECTOR_DB_IDS)[number];
export interface VectorDbEntry {
  id: VectorDbId;
  name: string;
  kind: ProviderKind;
  /** Available in this version: only these can be chosen. */
  builtIn: boolean;
  /** Stored inside Lectern's storage folder, with nothing to configure. */
  embedded?: boolean;
  /** The connection settings of a database that runs as its own server. */
  fields: SettingField[];
  /** What the database stores and where it is (the privacy screen). */
  dataHandling: DataHandling;
}

export const VECTOR_DBS: readonly VectorDbEntry[] = [
  {
    id: "lancedb",
    name: "LanceDB",
    kind: "built-in",
    builtIn: true,
    embedded: true,
    fields: [],
    dataHandling: stores(THIS_MACHINE),
  },
  {
    id: "chroma",
    name: "Chroma",
    kind: "self-hosted",
    builtIn: true,
    fields: [
      { key: "ChromaEndpoint", type: "url", required: true, placeholder: "http://localhost:8000" },
      { key: "ChromaApiHeader", type: "text", required: false, placeholder: "X-Chroma-Token" },
      { key: "ChromaApiKey", type: "password", required: false },
    ],
    dataHandling: stores(endpoint("ChromaEndpoint")),
  },
  {
    id: "pinecone",
    name: "Pinecone",
    kind: "cloud",
    builtIn: true,
    fields: [
      { key: "PineConeKey", env: "PINECONE_API_KEY", type: "password", required: true },
      { key: "PineConeIndex", env: "PINECONE_INDEX", type: "text", required: true, placeholder: "my-index" },
    ],
    dataHandling: stores(vendor(), "https://www.pinecone.io/privacy/"),
  },
  {
    id: "qdrant",
    name: "Qdrant",
    kind: "self-hosted",
    builtIn: true,
    fields: [
      {
        key: "QdrantEndpoint",
        env: "QDRANT_ENDPOINT",
        type: "url",
        required: true,
        placeholder: "http://localhost:6333",
      },
      { key: "QdrantApiKey", env: "QDRANT_API_KEY", type: "password", required: false },
    ],
    dataHandling: stores(endpoint("QdrantEndpoint"), "https://qdrant.tech/legal/privacy-policy/"),
  },
  {
    id: "weaviate",
    name: "Weaviate",
    kind: "self-hosted",
    builtIn: true,
    fields: [
      {
        key: "WeaviateEndpoint",
        env: "WEAVIATE_ENDPOINT",
        type: "url",
        required: true,
        placeholder: "http://localhost:8080",
      },
      { key: "WeaviateApiKey", env: "WEAVIATE_API_KEY", type: "password", required: false },
    ],
    dataHandling: stores(endpoint("WeaviateEndpoint"), "https://weaviate.io/privacy"),
  },
  {
    id: "milvus",
    name: "Milvus",
    kind: "self-hosted",
    builtIn: true,
    fields: [
      {
        key: "MilvusAddress",
        env: "MILVUS_ADDRESS",
        type: "url",
        required: true,
        placeholder: "http://localhost:19530",
      },
      { key: "MilvusUsername", env: "MILVUS_USERNAME", type: "text", required: false, placeholder: "root" },
      { key: "MilvusPassword", env: "MILVUS_PASSWORD", type: "password", required: false },
    ],
    dataHandling: stores(endpoint("MilvusAddress")),
  },
  {
    id: "zilliz",
    name: "Zilliz Cloud",
    kind: "cloud",
    builtIn: true,
    fields: [
      {
        key: "ZillizEndpoint",
        env: "ZILLIZ_ENDPOINT",
        type: "url",
        required: true,
        placeholder: "https://in03-example.serverless.gcp-us-west1.cloud.zilliz.com",
      },
      { key: "ZillizApiToken", env: "ZILLIZ_API_TOKEN", type: "password", required: true },
    ],
    dataHandling: stores(vendor(), "https://zilliz.com/privacy-policy"),
  },
  {
    id: "astra",
    name: "AstraDB",
    kind: "cloud",
    builtIn: true,
    fields: [
      {
        key: "AstraDBEndpoint",
        env: "ASTRA_DB_ENDPOINT",
        type: "url",
        required: true,
        placeholder: "https://example-id-us-east-2.apps.astra.datastax.com",
      },
      {
        key: "AstraDBApplicationToken",
        env: "ASTRA_DB_APPLICATION_TOKEN",
        type: "password",
        required: true,
        placeholder: "AstraCS:…",
      },
    ],
    dataHandling: stores(vendor(), "https://www.ibm.com/us-en/privacy"),
  },
];
