import { AppearanceScreen } from "../features/appearance/AppearanceScreen.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/appearance (admins only): how the instance presents itself. */
export default function Appearance() {
  return <SettingsPage page="appearance">{() => <AppearanceScreen />}</SettingsPage>;
}
