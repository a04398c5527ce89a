import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { AudioForm } from "../features/speech/AudioForm.tsx";

/** /settings/audio-preference: text-to-speech for answers and speech-to-text for the composer. */
export default function AudioPreference() {
  return (
    <SettingsPage page="audio-preference">
      {(setup) => <AudioForm setup={setup} />}
    </SettingsPage>
  );
}
