import { useTranslation } from "react-i18next";
import { LlmForm } from "../features/settings/LlmForm.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/llm-preference: the language-model provider and its settings (spec 02 §2, §3). */
export default function LlmPreference() {
  const { t } = useTranslation();
  return (
    <SettingsPage
      page="llm-preference"
      notice={<p className="notice warning">{t("llm.experimentalNotice")}</p>}
    >
      {(setup) => <LlmForm setup={setup} formId="llm-preference-form" />}
    </SettingsPage>
  );
}
