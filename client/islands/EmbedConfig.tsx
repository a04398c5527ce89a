import { EmbedConfigScreen } from "../features/embeds/EmbedConfigScreen.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/embed-config: the chat widgets other web sites embed (admins and managers). */
export default function EmbedConfig() {
  return <SettingsPage page="embed-config">{() => <EmbedConfigScreen />}</SettingsPage>;
}
