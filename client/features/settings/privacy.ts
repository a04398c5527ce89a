import { embedder, VECTOR_DBS } from "../../../shared/providers/embedder_catalog.ts";
import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import type { SetupResults } from "./setup.ts";

export type PrivacyRow = { area: "llm" | "embedder" | "vectorDb"; id: string | null; name: string | null };

/**
 * The services the data-handling summary describes: the language model, the embedding engine (openai when
 * unset) and the vector database (lancedb when unset), each by its catalog name, else its id.
 */
export function privacyRows(setup: SetupResults): PrivacyRow[] {
  const embedderId = setup.EmbeddingEngine ?? "openai";
  const vectorDbId = setup.VectorDB ?? "lancedb";
  return [
    {
      area: "llm",
      id: setup.LLMProvider,
      name: llmProvider(setup.LLMProvider ?? "")?.name ?? setup.LLMProvider,
    },
    { area: "embedder", id: embedderId, name: embedder(embedderId)?.name ?? embedderId },
    {
      area: "vectorDb",
      id: vectorDbId,
      name: VECTOR_DBS.find((database) => database.id === vectorDbId)?.name ?? vectorDbId,
    },
  ];
}

/** The locale key of a row's bullets: the service's own when the locale has it, else the area's default. */
export function privacyKey(row: PrivacyRow, exists: (key: string) => boolean): string {
  const specific = `settings.privacy.${row.area}.${row.id ?? "unset"}`;
  return exists(specific) ? specific : `settings.privacy.${row.area}.default`;
}
