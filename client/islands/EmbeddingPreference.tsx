import { EmbedderForm } from "../features/settings/EmbedderForm.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/embedding-preference: the engine that turns document text into vectors. */
export default function EmbeddingPreference() {
  return (
    <SettingsPage page="embedding-preference">
      {(setup) => <EmbedderForm setup={setup} formId="embedding-preference-form" showActions />}
    </SettingsPage>
  );
}
