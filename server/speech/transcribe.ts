import type { ProviderDeps } from "../providers/endpoints.ts";
import type { SettingsService } from "../settings/service.ts";
import type { StoragePaths } from "../storage.ts";
import { fail, ProviderError } from "../errors.ts";
import { MEDIA_EXTENSIONS } from "../../shared/providers/audio_catalog.ts";
import { type SpeechDeps, transcriberFor } from "../providers/transcription/registry.ts";
import type { ParsedDocument } from "../documents/parsers/types.ts";
import { CONTAINER_NAMES, sniffMedia } from "./media.ts";
import { decodeToMono16k } from "../providers/transcription/decode.ts";

/** OpenAI's Whisper API takes files up to 25 MB (the reference's limit for recorded speech too). */
export const WHISPER_API_MAX_BYTES = 25 * 1024 * 1024;

export function isMediaFile(name: string): boolean {
  const extension = /\.[^./\\]+$/.exec(name)?.[0].toLowerCase() ?? "";
  return MEDIA_EXTENSIONS.has(extension);
}

/** What transcribing uses (a part of `Deps`; links.ts, which deps.ts reaches, imports this file). */
export interface TranscribeDeps {
  providerDeps: ProviderDeps;
  paths: Pick<StoragePaths, "models">;
  settings: Pick<SettingsService, "value">;
}

export function speechDeps(deps: Pick<TranscribeDeps, "providerDeps" | "paths">): SpeechDeps {
  return { ...deps.providerDeps, modelsDir: deps.paths.models };
}

/**
 * The spoken text of an audio or video file, by the transcription provider of the settings. A file that is
 * not audio, or too large for a hosted API, is refused (400/413) with a sentence before anything is sent.
 */
export async function transcribeMedia(
  deps: TranscribeDeps,
  name: string,
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<string> {
  if (bytes.length === 0) fail("invalid_input", `${name} is empty.`);
  const container = sniffMedia(bytes);
  if (!container) {
    fail(
      "invalid_input",
      `${name} is not an audio or video file Lectern can transcribe (wav, mp3, ogg, m4a, webm or mp4).`,
    );
  }
  const provider = deps.settings.value("WhisperProvider") ?? "local";
  if (provider === "openai" && bytes.length > WHISPER_API_MAX_BYTES) {
    fail("too_large", `${name} is too large for OpenAI Whisper: it takes files up to 25 MB.`);
  }
  const transcriber = transcriberFor((key) => deps.settings.value(key), speechDeps(deps));
  // Decoded here whatever the provider: a container whose audio cannot be read is refused with a sentence
  // naming it before anything is sent (a hosted API still gets the file as it came, the local model the samples).
  let samples: Float32Array;
  try {
    samples = await decodeToMono16k(name, bytes, CONTAINER_NAMES[container]);
  } catch (error) {
    if (error instanceof ProviderError) fail("invalid_input", error.message);
    throw error;
  }
  return await transcriber.transcribe({ name, bytes, samples }, signal);
}

/** An uploaded audio or video file as a document: its transcript, with the reference's audio defaults. */
export async function transcribeUpload(
  deps: TranscribeDeps,
  name: string,
  bytes: Uint8Array,
): Promise<ParsedDocument> {
  const text = await transcribeMedia(deps, name, bytes);
  if (!text) fail("invalid_input", `No text content found in ${name}.`);
  return {
    text,
    docAuthor: "no author found",
    description: "No description found.",
    docSource: "audio file uploaded by the user.",
  };
}
