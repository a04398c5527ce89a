import { PrivacySummary } from "../features/settings/PrivacySummary.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

type Props = Record<string, never>;

/** /settings/privacy: where the configured providers send and keep the instance's data. */
export default function Privacy(_props: Props) {
  return <SettingsPage page="privacy">{(setup) => <PrivacySummary setup={setup} />}</SettingsPage>;
}
