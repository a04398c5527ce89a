/** One audio or video file to transcribe. */
export interface MediaFile {
  /** The file's name (its extension tells the container). */
  name: string;
  bytes: Uint8Array;
  /** The file already decoded to 16 kHz mono (decode.ts), so a local model need not decode it again. */
  samples?: Float32Array;
}

/** A transcription provider: media bytes in, the spoken text out; failures are ProviderErrors with a sentence. */
export interface Transcriber {
  /** The provider's name, for messages ("OpenAI Whisper"). */
  readonly name: string;
  transcribe(file: MediaFile, signal?: AbortSignal): Promise<string>;
}
