import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { TranscriptionForm } from "../features/speech/TranscriptionForm.tsx";

/** /settings/transcription-preference: the provider that turns uploaded audio and video into text. */
export default function TranscriptionPreference() {
  return (
    <SettingsPage page="transcription-preference">
      {(setup) => <TranscriptionForm setup={setup} />}
    </SettingsPage>
  );
}
