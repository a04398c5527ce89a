import { WorkspacesScreen } from "../features/admin/workspaces/WorkspacesScreen.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/**
 * /settings/workspaces (admins): every workspace of the instance, with its members in multi-user mode.
 * On a single-user instance there are no accounts, so the list has no member column.
 */
export default function Workspaces() {
  return (
    <SettingsPage page="workspaces">
      {(setup) => (
        <WorkspacesScreen
          multiUser={setup.MultiUserMode}
          deletionProtection={setup.WorkspaceDeletionProtection === true}
        />
      )}
    </SettingsPage>
  );
}
