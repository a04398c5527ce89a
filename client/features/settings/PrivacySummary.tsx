import { useTranslation } from "react-i18next";
import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { embedder, VECTOR_DBS } from "../../../shared/providers/embedder_catalog.ts";
import type { SetupResults } from "./setup.ts";

type Row = { area: "llm" | "embedder" | "vectorDb"; id: string | null; name: string | null };

/**
 * What each chosen service does with the instance's data (the data-handling step): the language model,
 * the embedding engine (openai when unset) and the vector database (lancedb when unset).
 */
export function PrivacySummary({ setup }: { setup: SetupResults }) {
  const { t, i18n } = useTranslation();
  const embedderId = setup.EmbeddingEngine ?? "openai";
  const vectorDbId = setup.VectorDB ?? "lancedb";
  const rows: Row[] = [
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

  const bullets = (row: Row): string[] => {
    const specific = `settings.privacy.${row.area}.${row.id ?? "unset"}`;
    const key = i18n.exists(specific) ? specific : `settings.privacy.${row.area}.default`;
    return t(key, { returnObjects: true, name: row.name }) as unknown as string[];
  };

  return (
    <div className="privacy-summary">
      {rows.map((row) => (
        <section key={row.area} className="privacy-card">
          <h2 className="privacy-area">{t(`settings.privacy.areas.${row.area}`)}</h2>
          <p className="privacy-name">{row.name ?? t("common.notSet")}</p>
          <ul className="privacy-bullets">
            {bullets(row).map((bullet) => <li key={bullet}>{bullet}</li>)}
          </ul>
        </section>
      ))}
    </div>
  );
}
