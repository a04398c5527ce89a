import { useState } from "react";
import { EmbedderForm } from "../features/settings/EmbedderForm.tsx";
import { EmbeddingJobStatus } from "../features/settings/EmbeddingJobStatus.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/embedding-preference: the engine that turns document text into vectors, and the switch to another. */
export default function EmbeddingPreference() {
  const [saves, setSaves] = useState(0);
  return (
    <SettingsPage page="embedding-preference">
      {(setup) => (
        <>
          <EmbeddingJobStatus refreshKey={saves} />
          <EmbedderForm
            setup={setup}
            formId="embedding-preference-form"
            showActions
            onSaved={() => setSaves((count) => count + 1)}
          />
        </>
      )}
    </SettingsPage>
  );
}
