/** How providers reach the network, shared by the chat model and embedder registries. */
export interface ProviderDeps {
  fetch?: typeof fetch;
  /** Where the hosted providers are (tests point them at fakes on loopback). */
  endpoints?: { openai?: string; anthropic?: string };
}

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const AZURE_API_VERSION = "2024-10-21";
