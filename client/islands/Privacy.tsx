import { useTranslation } from "react-i18next";
import { PrivacySummary } from "../features/settings/PrivacySummary.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

type Props = Record<string, never>;

/**
 * /settings/privacy: what each configured provider receives and where it goes (from the provider catalogs),
 * then what Lectern itself keeps and sends.
 */
export default function Privacy(_props: Props) {
  const { t } = useTranslation();
  return (
    <SettingsPage page="privacy">
      {(setup) => (
        <>
          <PrivacySummary setup={setup} />
          <section className="privacy-card privacy-lectern" aria-labelledby="privacy-lectern">
            <h2 className="privacy-area" id="privacy-lectern">{t("settings.privacy.lectern.title")}</h2>
            <ul className="privacy-bullets">
              <li>{t("settings.privacy.lectern.storage")}</li>
              <li>{t("settings.privacy.lectern.telemetry")}</li>
              <li>{t("settings.privacy.lectern.audio")}</li>
              <li>{t("settings.privacy.lectern.workspaces")}</li>
            </ul>
          </section>
        </>
      )}
    </SettingsPage>
  );
}
