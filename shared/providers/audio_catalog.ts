import type { ProviderKind, SettingField } from "./llm_catalog.ts";
import {
  type DataHandling,
  endpoint,
  THIS_MACHINE,
  TRANSCRIPTION_RECEIVES,
  vendor,
} from "./data_handling.ts";

/**
 * The speech providers: transcription of uploaded audio and video (`WhisperProvider`), text-to-speech behind
 * the chat's speak button (`TextToSpeechProvider`) and speech-to-text for the composer's microphone
 * (`SpeechToTextProvider`). Each vendor is one row of data; the settings forms, the update-env checks and the
 * setup-complete entries derive from it (docs/api-compat.md#speech-providers).
 */
export interface AudioProviderEntry {
  id: string;
  name: string;
  kind: ProviderKind;
  /** The settings form (the update-env keys, spelt as the reference spells them). */
  fields: SettingField[];
  /** What the provider is sent and where it goes (the privacy screen); transcription providers say it. */
  dataHandling?: DataHandling;
}

/** The local Whisper models, with the size of their download (the reference's warning shows it). */
export const LOCAL_WHISPER_MODELS = [
  { id: "Xenova/whisper-small", name: "Xenova/whisper-small", downloadSize: "250mb" },
  { id: "Xenova/whisper-large", name: "Xenova/whisper-large", downloadSize: "1.56GB" },
] as const;
export const DEFAULT_WHISPER_MODEL = "Xenova/whisper-small";

export const TRANSCRIPTION_PROVIDERS: readonly AudioProviderEntry[] = [
  {
    id: "local",
    name: "Lectern Built-In",
    kind: "built-in",
    dataHandling: { receives: TRANSCRIPTION_RECEIVES, destination: THIS_MACHINE },
    fields: [{
      key: "WhisperModelPref",
      type: "select",
      required: false,
      defaultValue: DEFAULT_WHISPER_MODEL,
      options: LOCAL_WHISPER_MODELS.map((model) => ({ value: model.id, label: model.name })),
    }],
  },
  {
    id: "openai",
    name: "OpenAI",
    kind: "cloud",
    dataHandling: {
      receives: TRANSCRIPTION_RECEIVES,
      destination: vendor("api.openai.com"),
      policyUrl: "https://openai.com/policies/privacy-policy/",
    },
    // The reference's OpenAI Whisper reads the LLM's OpenAI key; the model is fixed (whisper-1).
    fields: [{ key: "OpenAiKey", type: "password", required: true, placeholder: "OpenAI API Key" }],
  },
  {
    id: "generic-openai",
    name: "OpenAI Compatible",
    kind: "self-hosted",
    dataHandling: { receives: TRANSCRIPTION_RECEIVES, destination: endpoint("WhisperGenericOpenAiBaseUrl") },
    fields: [
      {
        key: "WhisperGenericOpenAiBaseUrl",
        type: "url",
        required: true,
        placeholder: "http://localhost:8000/v1",
      },
      { key: "WhisperGenericOpenAiApiKey", type: "password", required: false },
      { key: "WhisperGenericOpenAiModel", type: "text", required: true, placeholder: "whisper-1" },
    ],
  },
];

export const OPENAI_TTS_VOICES = ["alloy", "echo", "fable", "onyx", "nova", "shimmer"] as const;
/** ElevenLabs' "Rachel", the reference's default voice. */
export const DEFAULT_ELEVENLABS_VOICE = "21m00Tcm4TlvDq8ikWAM";
export const ELEVENLABS_MODEL = "eleven_multilingual_v2";

export const TTS_PROVIDERS: readonly AudioProviderEntry[] = [
  { id: "native", name: "System native", kind: "built-in", fields: [] },
  {
    id: "openai",
    name: "OpenAI",
    kind: "cloud",
    fields: [
      { key: "TTSOpenAIKey", type: "password", required: true, placeholder: "OpenAI API Key" },
      {
        key: "TTSOpenAIVoiceModel",
        type: "select",
        required: false,
        defaultValue: "alloy",
        options: OPENAI_TTS_VOICES.map((voice) => ({
          value: voice,
          label: voice[0].toUpperCase() + voice.slice(1),
        })),
      },
    ],
  },
  {
    id: "elevenlabs",
    name: "ElevenLabs",
    kind: "cloud",
    fields: [
      { key: "TTSElevenLabsKey", type: "password", required: true, placeholder: "ElevenLabs API Key" },
      {
        key: "TTSElevenLabsVoiceModel",
        type: "text",
        required: false,
        defaultValue: DEFAULT_ELEVENLABS_VOICE,
        placeholder: DEFAULT_ELEVENLABS_VOICE,
      },
    ],
  },
  {
    id: "generic-openai",
    name: "OpenAI Compatible",
    kind: "self-hosted",
    fields: [
      {
        key: "TTSOpenAICompatibleEndpoint",
        type: "url",
        required: true,
        placeholder: "http://localhost:7851/v1",
      },
      { key: "TTSOpenAICompatibleKey", type: "password", required: false, placeholder: "API Key" },
      { key: "TTSOpenAICompatibleModel", type: "text", required: false, placeholder: "tts-1" },
      { key: "TTSOpenAICompatibleVoiceModel", type: "text", required: true, placeholder: "alloy" },
    ],
  },
];

/**
 * Speech-to-text for the composer's microphone: the browser's own speech recognition, or the recording sent to
 * `POST /api/system/transcribe-audio` and read by the transcription provider.
 */
export const STT_PROVIDERS: readonly AudioProviderEntry[] = [
  { id: "native", name: "System native", kind: "built-in", fields: [] },
  { id: "transcription", name: "Transcription provider", kind: "built-in", fields: [] },
];

/** How update-env checks an audio setting's value (shared/settings.ts turns these into zod schemas). */
export type AudioCheck =
  | { kind: "url" }
  | { kind: "notEmpty" }
  | { kind: "any" }
  | { kind: "prefix"; prefix: string; message: string }
  | { kind: "oneOf"; values: readonly string[]; message: (value: string) => string };

export interface AudioSetting {
  key: string;
  env: string;
  check: AudioCheck;
  secret?: boolean;
  defaultValue?: string;
}

const ids = (entries: readonly AudioProviderEntry[]) => entries.map((entry) => entry.id);

/** Every update-env key of the speech providers, with the reference's environment names and defaults. */
export const AUDIO_SETTINGS: readonly AudioSetting[] = [
  {
    key: "WhisperProvider",
    env: "WHISPER_PROVIDER",
    defaultValue: "local",
    check: {
      kind: "oneOf",
      values: ids(TRANSCRIPTION_PROVIDERS),
      message: (value) => `${value} is not a valid transcription model provider.`,
    },
  },
  {
    key: "WhisperModelPref",
    env: "WHISPER_MODEL_PREF",
    defaultValue: DEFAULT_WHISPER_MODEL,
    check: {
      kind: "oneOf",
      values: LOCAL_WHISPER_MODELS.map((model) => model.id),
      message: (value) => `${value} is not a valid Whisper model selection.`,
    },
  },
  { key: "WhisperGenericOpenAiBaseUrl", env: "WHISPER_GENERIC_OPEN_AI_BASE_URL", check: { kind: "url" } },
  {
    key: "WhisperGenericOpenAiApiKey",
    env: "WHISPER_GENERIC_OPEN_AI_API_KEY",
    check: { kind: "any" },
    secret: true,
  },
  { key: "WhisperGenericOpenAiModel", env: "WHISPER_GENERIC_OPEN_AI_MODEL", check: { kind: "notEmpty" } },
  {
    key: "TextToSpeechProvider",
    env: "TTS_PROVIDER",
    defaultValue: "native",
    check: {
      kind: "oneOf",
      values: ids(TTS_PROVIDERS),
      message: (value) =>
        ["piper_local", "kokoro"].includes(value)
          ? `${value} is not available in this version of Lectern.`
          : `${value} is not a valid TTS provider.`,
    },
  },
  {
    key: "TTSOpenAIKey",
    env: "TTS_OPEN_AI_KEY",
    secret: true,
    check: { kind: "prefix", prefix: "sk-", message: "OpenAI Key must start with sk-." },
  },
  {
    key: "TTSOpenAIVoiceModel",
    env: "TTS_OPEN_AI_VOICE_MODEL",
    check: { kind: "any" },
    defaultValue: "alloy",
  },
  { key: "TTSElevenLabsKey", env: "TTS_ELEVEN_LABS_KEY", check: { kind: "notEmpty" }, secret: true },
  {
    key: "TTSElevenLabsVoiceModel",
    env: "TTS_ELEVEN_LABS_VOICE_MODEL",
    check: { kind: "any" },
    defaultValue: DEFAULT_ELEVENLABS_VOICE,
  },
  {
    key: "TTSOpenAICompatibleKey",
    env: "TTS_OPEN_AI_COMPATIBLE_KEY",
    check: { kind: "any" },
    secret: true,
  },
  { key: "TTSOpenAICompatibleModel", env: "TTS_OPEN_AI_COMPATIBLE_MODEL", check: { kind: "any" } },
  {
    key: "TTSOpenAICompatibleVoiceModel",
    env: "TTS_OPEN_AI_COMPATIBLE_VOICE_MODEL",
    check: { kind: "notEmpty" },
  },
  { key: "TTSOpenAICompatibleEndpoint", env: "TTS_OPEN_AI_COMPATIBLE_ENDPOINT", check: { kind: "url" } },
  {
    key: "SpeechToTextProvider",
    env: "STT_PROVIDER",
    defaultValue: "native",
    check: {
      kind: "oneOf",
      values: ids(STT_PROVIDERS),
      message: (value) => `${value} is not a valid STT provider.`,
    },
  },
];

/** Audio and video uploads that become documents through the transcription provider, by MIME type. */
export const MEDIA_DOCUMENT_TYPES: Record<string, string[]> = {
  "audio/wav": [".wav"],
  "audio/mpeg": [".mp3"],
  "audio/ogg": [".ogg", ".oga"],
  "audio/opus": [".opus"],
  "audio/mp4": [".m4a"],
  "audio/x-m4a": [".m4a"],
  "audio/webm": [".webm"],
  "video/mp4": [".mp4"],
};

export const MEDIA_EXTENSIONS: ReadonlySet<string> = new Set(Object.values(MEDIA_DOCUMENT_TYPES).flat());
