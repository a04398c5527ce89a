import { EmbedChatsScreen } from "../features/embeds/EmbedChatsScreen.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/embed-chats: the chats held through the embed widgets (admins and managers). */
export default function EmbedChats() {
  return <SettingsPage page="embed-chats">{() => <EmbedChatsScreen />}</SettingsPage>;
}
