/**
 * What container a media file's first bytes name, or null when they are not audio or video Lectern can
 * transcribe (a text file renamed .mp3, an image). Checked before anything is sent to a provider.
 */
export function sniffMedia(bytes: Uint8Array): "wav" | "mp3" | "ogg" | "mp4" | "webm" | null {
  const ascii = (offset: number, text: string) =>
    [...text].every((char, index) => bytes[offset + index] === char.charCodeAt(0));
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return "wav";
  if (ascii(0, "OggS")) return "ogg";
  if (ascii(4, "ftyp")) return "mp4";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "webm";
  if (ascii(0, "ID3")) return "mp3";
  // An MPEG audio frame header: 11 sync bits, then a layer that is not "reserved".
  if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0 && (bytes[1] & 0x06) !== 0) return "mp3";
  return null;
}

export type MediaContainer = NonNullable<ReturnType<typeof sniffMedia>>;

/** How messages name each container. */
export const CONTAINER_NAMES: Record<MediaContainer, string> = {
  wav: "WAV",
  mp3: "MP3",
  ogg: "Ogg",
  mp4: "MP4 (m4a)",
  webm: "WebM",
};
