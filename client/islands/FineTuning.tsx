import { useTranslation } from "react-i18next";
import { paths } from "../../shared/routes.ts";

/** /fine-tuning: what fine-tuning is and where this instance's chats come from for it. */
export default function FineTuning() {
  const { t } = useTranslation();
  return (
    <div className="page fine-tuning">
      <header className="settings-header">
        <h1>{t("fineTuning.heading")}</h1>
        <p className="muted">{t("fineTuning.intro")}</p>
      </header>
      <section className="card prose">
        <h2>{t("fineTuning.whatTitle")}</h2>
        <p>{t("fineTuning.what")}</p>
        <p>{t("fineTuning.whenUseful")}</p>
        <h2>{t("fineTuning.dataTitle")}</h2>
        <p>{t("fineTuning.data")}</p>
        <p>{t("fineTuning.export")}</p>
        <p className="muted">{t("fineTuning.review")}</p>
        <div className="form-actions start">
          <a className="button primary" href={paths.settings("workspace-chats")}>
            {t("fineTuning.openChats")}
          </a>
        </div>
      </section>
    </div>
  );
}
