import { useTranslation } from "react-i18next";
import { privacyKey, type PrivacyRow, privacyRows } from "./privacy.ts";
import type { SetupResults } from "./setup.ts";

/**
 * What each chosen service does with the instance's data (the data-handling step): the language model,
 * the embedding engine (openai when unset) and the vector database (lancedb when unset).
 */
export function PrivacySummary({ setup }: { setup: SetupResults }) {
  const { t, i18n } = useTranslation();
  const rows = privacyRows(setup);

  const bullets = (row: PrivacyRow): string[] =>
    t(privacyKey(row, (key) => i18n.exists(key)), {
      returnObjects: true,
      name: row.name,
    }) as unknown as string[];

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
