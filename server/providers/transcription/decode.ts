import { ProviderError } from "../../errors.ts";

/** Whisper models read 16 kHz mono samples. */
export const WHISPER_SAMPLE_RATE = 16000;

/**
 * Decodes an audio or video file (wav, mp3, ogg/opus, m4a/mp4 AAC, webm) into 16 kHz mono samples with
 * audio-decode (pure JavaScript and WebAssembly codecs: nothing to install, works offline). A file that is not
 * audio of a known container is a ProviderError saying so, naming the container (`format`, e.g. "MP4") when the
 * caller knows it.
 */
export async function decodeToMono16k(
  name: string,
  bytes: Uint8Array,
  format?: string,
): Promise<Float32Array> {
  const { default: decode } = await import("audio-decode");
  const as = format ? `${format} audio` : "audio";
  let audio: { channelData: Float32Array[]; sampleRate: number };
  try {
    audio = await decode(bytes);
  } catch (error) {
    throw new ProviderError(
      `${name} could not be decoded as ${as}: ${(error as Error).message.replace(/\.?$/, ".")}`,
      undefined,
      { cause: error },
    );
  }
  const channels = (audio.channelData ?? []).filter((channel) => channel.length > 0);
  if (channels.length === 0) throw new ProviderError(`${name} holds no ${as}.`);
  return resample(mixDown(channels), audio.sampleRate, WHISPER_SAMPLE_RATE);
}

/** The channels averaged into one. */
export function mixDown(channels: Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0];
  const length = Math.min(...channels.map((channel) => channel.length));
  const mono = new Float32Array(length);
  for (const channel of channels) {
    for (let index = 0; index < length; index++) mono[index] += channel[index] / channels.length;
  }
  return mono;
}

/** Linear-interpolation resampling (speech survives it well enough for recognition). */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const length = Math.max(1, Math.round(samples.length * to / from));
  const out = new Float32Array(length);
  const step = from / to;
  for (let index = 0; index < length; index++) {
    const position = index * step;
    const left = Math.floor(position);
    const right = Math.min(left + 1, samples.length - 1);
    const weight = position - left;
    out[index] = (samples[Math.min(left, samples.length - 1)] ?? 0) * (1 - weight) +
      (samples[right] ?? 0) * weight;
  }
  return out;
}
