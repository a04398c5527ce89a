import type { ChatAttachment } from "./messages.ts";

/** Images a prompt may carry: the server's limits (server/chat/attachments.ts). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export const MAX_IMAGES = 5;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export type Rejection = { name: string; reason: "type" | "size" | "count" };

/** Which of `files` may join the `already` attached images, and why the others may not. */
export function checkImages(files: File[], already: number): { accepted: File[]; rejected: Rejection[] } {
  const accepted: File[] = [];
  const rejected: Rejection[] = [];
  for (const file of files) {
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      rejected.push({ name: file.name, reason: "type" });
    } else if (file.size > MAX_IMAGE_BYTES) {
      rejected.push({ name: file.name, reason: "size" });
    } else if (already + accepted.length >= MAX_IMAGES) {
      rejected.push({ name: file.name, reason: "count" });
    } else accepted.push(file);
  }
  return { accepted, rejected };
}

export function readAsDataUrl(file: File): Promise<ChatAttachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve({ name: file.name || "image", mime: file.type, dataUrl: String(reader.result) });
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}

/** The request shape of docs/api-compat.md#chat-request-body. */
export function toRequestAttachments(images: ChatAttachment[]) {
  return images.map((image) => ({ name: image.name, mime: image.mime, contentString: image.dataUrl }));
}
