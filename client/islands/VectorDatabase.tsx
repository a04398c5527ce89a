import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { RerankerForm } from "../features/settings/RerankerForm.tsx";
import { VectorDbForm } from "../features/settings/VectorDbForm.tsx";

/** /settings/vector-database: where the workspaces' vectors are stored, and the reranker of their search. */
export default function VectorDatabase() {
  return (
    <SettingsPage page="vector-database">
      {(setup) => (
        <>
          <VectorDbForm setup={setup} formId="vector-database-form" showActions />
          <RerankerForm setup={setup} />
        </>
      )}
    </SettingsPage>
  );
}
