/** The language-model providers of spec 01 §2.6, in the order the provider list shows them. */
export const LLM_PROVIDER_IDS = [
  "openai",
  "azure",
  "anthropic",
  "gemini",
  "huggingface",
  "ollama",
  "novita",
  "lmstudio",
  "localai",
  "koboldcpp",
  "textgenwebui",
  "togetherai",
  "fireworksai",
  "mistral",
  "perplexity",
  "openrouter",
  "groq",
  "cohere",
  "litellm",
  "deepseek",
  "apipie",
  "generic-openai",
  "bedrock",
  "xai",
  "native",
] as const;
export type LlmProviderId = (typeof LLM_PROVIDER_IDS)[number];

export interface SettingField {
  /** The update-env key, spelt as spec 02 §3. */
  key: string;
  type: "url" | "password" | "text" | "number";
  required: boolean;
  placeholder?: string;
  defaultValue?: string;
}

export interface LlmProviderEntry {
  id: LlmProviderId;
  name: string;
  /** The settings form; a provider whose form is empty cannot be chosen in this version. */
  fields: SettingField[];
  /** The key that names the chosen model, reported as `LLMModel`. */
  modelKey?: string;
  /** The key that holds the model's context window in tokens. */
  tokenLimitKey?: string;
}

const entry = (id: LlmProviderId, name: string, rest: Partial<LlmProviderEntry> = {}): LlmProviderEntry => ({
  id,
  name,
  fields: [],
  ...rest,
});

export const LLM_PROVIDERS: readonly LlmProviderEntry[] = [
  entry("openai", "OpenAI"),
  entry("azure", "Azure OpenAI"),
  entry("anthropic", "Anthropic"),
  entry("gemini", "Gemini"),
  entry("huggingface", "HuggingFace"),
  entry("ollama", "Ollama"),
  entry("novita", "Novita AI"),
  entry("lmstudio", "LM Studio"),
  entry("localai", "Local AI"),
  entry("koboldcpp", "KoboldCPP"),
  entry("textgenwebui", "Oobabooga Web UI"),
  entry("togetherai", "Together AI"),
  entry("fireworksai", "Fireworks AI"),
  entry("mistral", "Mistral"),
  entry("perplexity", "Perplexity AI"),
  entry("openrouter", "OpenRouter"),
  entry("groq", "Groq"),
  entry("cohere", "Cohere"),
  entry("litellm", "LiteLLM"),
  entry("deepseek", "DeepSeek"),
  entry("apipie", "APIpie"),
  entry("generic-openai", "Generic OpenAI", {
    fields: [
      {
        key: "GenericOpenAiBasePath",
        type: "url",
        required: true,
        placeholder: "https://api.example.com/v1",
      },
      { key: "GenericOpenAiKey", type: "password", required: false },
      { key: "GenericOpenAiModelPref", type: "text", required: true, placeholder: "my-model" },
      { key: "GenericOpenAiTokenLimit", type: "number", required: true, placeholder: "4096" },
      { key: "GenericOpenAiMaxTokens", type: "number", required: true, defaultValue: "1024" },
    ],
    modelKey: "GenericOpenAiModelPref",
    tokenLimitKey: "GenericOpenAiTokenLimit",
  }),
  entry("bedrock", "AWS Bedrock"),
  entry("xai", "xAI"),
  entry("native", "Native"),
];

export function llmProvider(id: string): LlmProviderEntry | undefined {
  return LLM_PROVIDERS.find((provider) => provider.id === id);
}
