import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { VectorDbForm } from "../features/settings/VectorDbForm.tsx";

/** /settings/vector-database: where the workspaces' vectors are stored. */
export default function VectorDatabase() {
  return (
    <SettingsPage page="vector-database">
      {(setup) => <VectorDbForm setup={setup} formId="vector-database-form" showActions />}
    </SettingsPage>
  );
}
