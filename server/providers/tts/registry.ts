import { ProviderError } from "../../errors.ts";
import { OPENAI_BASE_URL } from "../endpoints.ts";
import { DEFAULT_ELEVENLABS_VOICE, ELEVENLABS_MODEL } from "../../../shared/providers/audio_catalog.ts";
import type { SettingValue, SpeechDeps } from "../transcription/registry.ts";
import { fetchSpeech } from "./http.ts";
import type { Speech, SpeechMaker } from "./types.ts";

export const ELEVENLABS_BASE_URL = "https://api.elevenlabs.io";

/** OpenAI's speech API and the servers that copy it: `POST {base}/audio/speech {model, voice, input}`. */
export function openAiSpeech(options: {
  name: string;
  baseUrl: string;
  apiKey?: string;
  model: string;
  voice: string;
  fetch?: typeof fetch;
}): SpeechMaker {
  return {
    name: options.name,
    speak: (text: string, signal?: AbortSignal): Promise<Speech> =>
      fetchSpeech(options.name, `${options.baseUrl.replace(/\/+$/, "")}/audio/speech`, {
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        body: { model: options.model, voice: options.voice, input: text },
        fetch: options.fetch,
        signal,
      }),
  };
}

/** ElevenLabs: `POST {base}/v1/text-to-speech/{voice} {text, model_id}` with the `xi-api-key` header. */
export function elevenLabsSpeech(options: {
  baseUrl: string;
  apiKey: string;
  voice: string;
  fetch?: typeof fetch;
}): SpeechMaker {
  const name = "ElevenLabs";
  return {
    name,
    speak: (text: string, signal?: AbortSignal): Promise<Speech> =>
      fetchSpeech(
        name,
        `${options.baseUrl.replace(/\/+$/, "")}/v1/text-to-speech/${encodeURIComponent(options.voice)}`,
        {
          headers: { "xi-api-key": options.apiKey, accept: "audio/mpeg" },
          body: { text, model_id: ELEVENLABS_MODEL },
          fetch: options.fetch,
          signal,
        },
      ),
  };
}

/**
 * The server-side speech provider the settings choose, or null for `native` (the browser speaks the text
 * itself). A provider missing its key or endpoint is a ProviderError saying which.
 */
export function speechMakerFor(value: SettingValue, deps: Omit<SpeechDeps, "modelsDir">): SpeechMaker | null {
  const provider = value("TextToSpeechProvider") ?? "native";
  switch (provider) {
    case "native":
      return null;
    case "openai": {
      const apiKey = value("TTSOpenAIKey");
      if (!apiKey) throw new ProviderError("No OpenAI API key was set for text-to-speech.");
      return openAiSpeech({
        name: "OpenAI text-to-speech",
        baseUrl: deps.endpoints?.openai ?? OPENAI_BASE_URL,
        apiKey,
        model: "tts-1",
        voice: value("TTSOpenAIVoiceModel") || "alloy",
        fetch: deps.fetch,
      });
    }
    case "elevenlabs": {
      const apiKey = value("TTSElevenLabsKey");
      if (!apiKey) throw new ProviderError("No ElevenLabs API key was set.");
      return elevenLabsSpeech({
        baseUrl: deps.endpoints?.elevenlabs ?? ELEVENLABS_BASE_URL,
        apiKey,
        voice: value("TTSElevenLabsVoiceModel") || DEFAULT_ELEVENLABS_VOICE,
        fetch: deps.fetch,
      });
    }
    case "generic-openai": {
      const baseUrl = value("TTSOpenAICompatibleEndpoint");
      if (!baseUrl) {
        throw new ProviderError(
          "No OpenAI compatible endpoint was set. Please set this to use your OpenAI compatible TTS service.",
        );
      }
      return openAiSpeech({
        name: "The OpenAI-compatible speech service",
        baseUrl,
        apiKey: value("TTSOpenAICompatibleKey"),
        model: value("TTSOpenAICompatibleModel") || "tts-1",
        voice: value("TTSOpenAICompatibleVoiceModel") || "alloy",
        fetch: deps.fetch,
      });
    }
    default:
      throw new ProviderError(`${provider} is not a valid TTS provider.`);
  }
}
