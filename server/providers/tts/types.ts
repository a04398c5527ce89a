/** Speech made by a text-to-speech provider. */
export interface Speech {
  bytes: Uint8Array;
  /** The audio's MIME type, read from its first bytes (audio_format.ts). */
  mime: string;
}

/** A text-to-speech provider; failures are ProviderErrors whose message names the provider and the reason. */
export interface SpeechMaker {
  readonly name: string;
  speak(text: string, signal?: AbortSignal): Promise<Speech>;
}
