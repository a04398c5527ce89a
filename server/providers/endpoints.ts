/** How providers reach the network, shared by the chat model and embedder registries. */
export interface ProviderDeps {
  fetch?: typeof fetch;
  /**
   * Where the hosted providers are, by provider id (`openai`, `anthropic`, `togetherai`, …): a hosted
   * vendor's fixed base URL from the provider table is replaced by this (tests point them at fakes on
   * loopback).
   */
  endpoints?: Readonly<Record<string, string | undefined>>;
  /** The storage's models folder (the built-in embedder's and the `native` LLM's files). */
  modelsDir?: string;
}

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const AZURE_API_VERSION = "2024-10-21";
