import { useTranslation } from "react-i18next";
import { STT_PROVIDERS, TTS_PROVIDERS } from "../../../shared/providers/audio_catalog.ts";
import { choiceSettings } from "../settings/provider_form.ts";
import { SettingsForm } from "../settings/SettingsForm.tsx";
import { type SetupResults, updateEnv } from "../settings/setup.ts";
import { useProviderForm } from "../settings/use_provider_form.ts";
import { ProviderSection } from "./ProviderSection.tsx";

const savedChoice = (value: unknown) => typeof value === "string" ? value : "native";

/** /settings/audio-preference: who reads answers aloud, and who turns the microphone's speech into text. */
export function AudioForm({ setup }: { setup: SetupResults }) {
  const { t } = useTranslation();
  const tts = useProviderForm(TTS_PROVIDERS, setup, savedChoice(setup.TextToSpeechProvider));
  const stt = useProviderForm(STT_PROVIDERS, setup, savedChoice(setup.SpeechToTextProvider));

  async function save() {
    const saved = await updateEnv({
      ...choiceSettings("TextToSpeechProvider", tts.selected, tts.locked),
      ...tts.fieldSettings(),
      ...choiceSettings("SpeechToTextProvider", stt.selected, stt.locked),
    });
    tts.applySaved(saved);
    stt.applySaved(saved);
  }

  return (
    <SettingsForm
      formId="audio-preference-form"
      showActions
      save={save}
      successKey="speech.audio.saved"
      failureKey="speech.audio.saveFailed"
      disabled={!tts.choice || !stt.choice}
    >
      <h2 className="provider-form-title">{t("speech.audio.ttsTitle")}</h2>
      <ProviderSection
        name="tts-provider"
        legend={t("speech.audio.tts.legend")}
        choices={TTS_PROVIDERS}
        descriptions="speech.audio.tts.providers"
        choiceKey="TextToSpeechProvider"
        form={tts}
        title={t("speech.audio.providerSettings", { name: tts.choice?.name ?? "" })}
      />
      <h2 className="provider-form-title">{t("speech.audio.sttTitle")}</h2>
      <ProviderSection
        name="stt-provider"
        legend={t("speech.audio.stt.legend")}
        choices={STT_PROVIDERS}
        descriptions="speech.audio.stt.providers"
        choiceKey="SpeechToTextProvider"
        form={stt}
        title={t("speech.audio.providerSettings", { name: stt.choice?.name ?? "" })}
      />
    </SettingsForm>
  );
}
