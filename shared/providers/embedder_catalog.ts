import type { SettingField } from "./llm_catalog.ts";

/** The embedding engines named by spec 01 §3. */
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
  /** The settings form; an engine without a form and not built in cannot be chosen in this version. */
  fields: SettingField[];
  builtIn?: boolean;
}

export const EMBEDDERS: readonly EmbedderEntry[] = [
  { id: "native", name: "Lectern Embedder", fields: [], builtIn: true },
  { id: "openai", name: "OpenAI", fields: [] },
  { id: "azure", name: "Azure OpenAI", fields: [] },
  { id: "localai", name: "Local AI", fields: [] },
  { id: "ollama", name: "Ollama", fields: [] },
  { id: "lmstudio", name: "LM Studio", fields: [] },
  { id: "cohere", name: "Cohere", fields: [] },
  { id: "voyageai", name: "Voyage AI", fields: [] },
  { id: "litellm", name: "LiteLLM", fields: [] },
  {
    id: "generic-openai",
    name: "Generic OpenAI",
    fields: [
      { key: "EmbeddingBasePath", type: "url", required: true, placeholder: "https://api.example.com/v1" },
      { key: "GenericOpenAiEmbeddingApiKey", type: "password", required: false },
      { key: "EmbeddingModelPref", type: "text", required: true, placeholder: "text-embedding-3-small" },
      { key: "EmbeddingModelMaxChunkLength", type: "number", required: false, placeholder: "1000" },
    ],
  },
];

export function embedder(id: string): EmbedderEntry | undefined {
  return EMBEDDERS.find((entry) => entry.id === id);
}

export function isSelectableEmbedder(entry: EmbedderEntry): boolean {
  return entry.builtIn === true || entry.fields.length > 0;
}

/** The vector databases named by spec 01 §3; LanceDB is the embedded one. */
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
export const VECTOR_DBS: readonly { id: VectorDbId; name: string; builtIn: boolean }[] = [
  { id: "lancedb", name: "LanceDB", builtIn: true },
  { id: "chroma", name: "Chroma", builtIn: false },
  { id: "pinecone", name: "Pinecone", builtIn: false },
  { id: "qdrant", name: "Qdrant", builtIn: false },
  { id: "weaviate", name: "Weaviate", builtIn: false },
  { id: "milvus", name: "Milvus", builtIn: false },
  { id: "zilliz", name: "Zilliz Cloud", builtIn: false },
  { id: "astra", name: "AstraDB", builtIn: false },
];
