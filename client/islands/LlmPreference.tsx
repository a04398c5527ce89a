import { LlmForm } from "../features/settings/LlmForm.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/llm-preference: the language-model provider and its settings. */
export default function LlmPreference() {
  return (
    <SettingsPage page="llm-preference">
      {(setup) => <LlmForm setup={setup} formId="llm-preference-form" />}
    </SettingsPage>
  );
}
