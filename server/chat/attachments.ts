import type { ImageInput } from "../providers/llm/types.ts";

export const MAX_ATTACHMENTS = 5;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * The images of a chat request (`attachments: [{name, mime, contentString}]`,
 * docs/api-compat.md#chat-request-body), checked: at most 5 PNG, JPEG, WebP or GIF data URLs of at most 10 MB
 * each. Returns the images or a message saying what is wrong.
 */
export function parseAttachments(value: unknown): { images: ImageInput[] } | { error: string } {
  if (value === undefined || value === null) return { images: [] };
  if (!Array.isArray(value)) return { error: "attachments must be a list." };
  if (value.length > MAX_ATTACHMENTS) {
    return { error: `At most ${MAX_ATTACHMENTS} images can be attached to a message.` };
  }
  const images: ImageInput[] = [];
  for (const [index, item] of value.entries()) {
    const entry = (item ?? {}) as { name?: unknown; mime?: unknown; contentString?: unknown };
    const name = typeof entry.name === "string" && entry.name.trim()
      ? entry.name.trim().slice(0, 255)
      : `image-${index + 1}`;
    const match = typeof entry.contentString === "string" ? DATA_URL.exec(entry.contentString) : null;
    if (!match) return { error: `${name} is not a PNG, JPEG, WebP or GIF image sent as a data URL.` };
    if (Math.floor(match[2].length * 3 / 4) > MAX_ATTACHMENT_BYTES) {
      return { error: `${name} is too large: images can be at most 10 MB.` };
    }
    images.push({ name, mime: match[1], dataUrl: entry.contentString as string });
  }
  return { images };
}
