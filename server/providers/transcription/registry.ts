import { ProviderError } from "../../errors.ts";
import { OPENAI_BASE_URL, type ProviderDeps } from "../endpoints.ts";
import { DEFAULT_WHISPER_MODEL } from "../../../shared/providers/audio_catalog.ts";
import { localWhisper } from "./local_whisper.ts";
import { whisperApi } from "./openai_whisper.ts";
import type { Transcriber } from "./types.ts";

/** How the speech providers reach the network and their files (tests point them at loopback fakes). */
export interface SpeechDeps extends ProviderDeps {
  endpoints?: ProviderDeps["endpoints"] & { elevenlabs?: string; huggingface?: string };
  /** STORAGE_DIR/models, where the local Whisper model is kept. */
  modelsDir: string;
}

/** The settings a transcriber is built from (`deps.settings.value`). */
export type SettingValue = (key: string) => string | undefined;

/** The transcription provider the settings choose (`WhisperProvider`, default the local model). */
export function transcriberFor(value: SettingValue, deps: SpeechDeps): Transcriber {
  const provider = value("WhisperProvider") ?? "local";
  switch (provider) {
    case "openai": {
      const apiKey = value("OpenAiKey");
      if (!apiKey) throw new ProviderError("No OpenAI API key was set: add it in Settings → Transcription.");
      return whisperApi({
        name: "OpenAI Whisper",
        baseUrl: deps.endpoints?.openai ?? OPENAI_BASE_URL,
        apiKey,
        model: "whisper-1",
        fetch: deps.fetch,
      });
    }
    case "generic-openai": {
      const baseUrl = value("WhisperGenericOpenAiBaseUrl");
      if (!baseUrl) {
        throw new ProviderError("No base URL was set for the OpenAI-compatible transcription service.");
      }
      return whisperApi({
        name: "The OpenAI-compatible transcription service",
        baseUrl,
        apiKey: value("WhisperGenericOpenAiApiKey"),
        model: value("WhisperGenericOpenAiModel") || "whisper-1",
        fetch: deps.fetch,
      });
    }
    case "local":
      return localWhisper({
        modelsDir: deps.modelsDir,
        modelId: value("WhisperModelPref") ?? DEFAULT_WHISPER_MODEL,
        hubUrl: deps.endpoints?.huggingface,
        fetch: deps.fetch,
      });
    default:
      throw new ProviderError(`${provider} is not a valid transcription model provider.`);
  }
}
