import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { WorkspaceChatsScreen } from "../features/workspace_chats/WorkspaceChatsScreen.tsx";

/** /settings/workspace-chats: every chat of every workspace, for admins (the page guard lets only them in). */
export default function WorkspaceChats() {
  return <SettingsPage page="workspace-chats">{() => <WorkspaceChatsScreen />}</SettingsPage>;
}
