import { useTranslation } from "react-i18next";
import { destinationKey, noteKey, type PrivacyRow, privacyRows } from "./privacy.ts";
import type { SetupResults } from "./setup.ts";

/**
 * What each chosen service is sent and where it goes (the privacy screen and the data-handling step): the
 * language model, the embedding engine (openai when unset) and the vector database (lancedb when unset), all
 * read from the provider catalogs.
 */
export function PrivacySummary({ setup }: { setup: SetupResults }) {
  const rows = privacyRows(setup);
  return (
    <div className="privacy-summary">
      {rows.map((row) => <PrivacyCard key={row.area} row={row} />)}
    </div>
  );
}

function PrivacyCard({ row }: { row: PrivacyRow }) {
  const { t } = useTranslation();
  const destination = row.destination;
  const where = t(`settings.privacy.where.${destinationKey(destination)}`, {
    name: row.name,
    host: destination.kind === "host" ? destination.host : "",
    key: destination.kind === "notSet" ? destination.key : "",
  });
  return (
    <section className="privacy-card" aria-label={t(`settings.privacy.areas.${row.area}`)}>
      <h2 className="privacy-area">{t(`settings.privacy.areas.${row.area}`)}</h2>
      <p className="privacy-name">{row.name ?? t("common.notSet")}</p>
      {row.known && (
        <dl className="privacy-facts">
          <dt>{t("settings.privacy.receives")}</dt>
          <dd>
            <ul className="privacy-receives">
              {row.receives.map((kind) => <li key={kind}>{t(`settings.privacy.sent.${kind}`)}</li>)}
            </ul>
          </dd>
          <dt>{t("settings.privacy.goesTo")}</dt>
          <dd
            className="privacy-where"
            data-reach={destination.kind === "host" ? destination.reach : undefined}
          >
            {where}
          </dd>
        </dl>
      )}
      <p className="privacy-note">
        {t(`settings.privacy.note.${noteKey(row)}`, { name: row.name, id: row.id })}
        {row.known && row.policyUrl && noteKey(row) === "policy" && (
          <>
            {" "}
            <a href={row.policyUrl} target="_blank" rel="noopener noreferrer">
              {t("settings.privacy.policyLink", { name: row.name })}
            </a>
          </>
        )}
      </p>
    </section>
  );
}
