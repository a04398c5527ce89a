import { useTranslation } from "react-i18next";
import {
  DEFAULT_WHISPER_MODEL,
  LOCAL_WHISPER_MODELS,
  TRANSCRIPTION_PROVIDERS,
} from "../../../shared/providers/audio_catalog.ts";
import { choiceSettings } from "../settings/provider_form.ts";
import { SettingsForm } from "../settings/SettingsForm.tsx";
import { type SetupResults, updateEnv } from "../settings/setup.ts";
import { useProviderForm } from "../settings/use_provider_form.ts";
import { ProviderSection } from "./ProviderSection.tsx";

/** The reference's warning for the local model: RAM, file size, and the first-use download. */
function LocalWarning({ model }: { model: string }) {
  const { t } = useTranslation();
  const size = LOCAL_WHISPER_MODELS.find((entry) => entry.id === model)?.downloadSize ??
    LOCAL_WHISPER_MODELS[0].downloadSize;
  return (
    <p className="notice" role="note" data-testid="whisper-warning">
      {t("speech.transcription.warnStart")}
      <br />
      {t("speech.transcription.warnRecommend")}
      <br />
      <i>{t("speech.transcription.warnEnd", { size })}</i>
    </p>
  );
}

/** /settings/transcription-preference: who turns uploaded audio and video into text. */
export function TranscriptionForm({ setup }: { setup: SetupResults }) {
  const { t } = useTranslation();
  const saved = typeof setup.WhisperProvider === "string" ? setup.WhisperProvider : "local";
  const form = useProviderForm(TRANSCRIPTION_PROVIDERS, setup, saved);

  async function save() {
    const settings = choiceSettings("WhisperProvider", form.selected, form.locked);
    form.applySaved(await updateEnv({ ...settings, ...form.fieldSettings() }));
  }

  return (
    <SettingsForm
      formId="transcription-preference-form"
      showActions
      save={save}
      successKey="speech.transcription.saved"
      failureKey="speech.transcription.saveFailed"
      disabled={!form.choice}
    >
      {form.selected === "local" && (
        <LocalWarning model={form.values.WhisperModelPref ?? DEFAULT_WHISPER_MODEL} />
      )}
      {form.selected === "openai" && <p className="field-hint">{t("speech.transcription.openAiKeyShared")}
      </p>}
      <ProviderSection
        name="transcription-provider"
        legend={t("speech.transcription.legend")}
        choices={TRANSCRIPTION_PROVIDERS}
        descriptions="speech.transcription.providers"
        choiceKey="WhisperProvider"
        form={form}
        title={t("speech.transcription.providerSettings", { name: form.choice?.name ?? "" })}
      />
    </SettingsForm>
  );
}
