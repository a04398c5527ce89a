import { BrowserExtensionScreen } from "../features/browser_extension/BrowserExtensionScreen.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/browser-extension: the browser extension's keys, for admins (the page guard lets only them in). */
export default function BrowserExtension() {
  return (
    <SettingsPage page="browser-extension">
      {(setup) => <BrowserExtensionScreen multiUser={setup.MultiUserMode} />}
    </SettingsPage>
  );
}
