import { MAX_PICTURE_BYTES, PICTURE_TYPES } from "./api.ts";

/** Up to two letters standing in for a missing assistant picture. */
export function initials(name: string): string {
  return name.trim().slice(0, 2).toUpperCase() || "AI";
}

/** Why a chosen file cannot be the picture (its type, its size), or null. */
export function pictureProblem(file: { type: string; size: number }): "wrongType" | "tooLarge" | null {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) return "wrongType";
  if (file.size > MAX_PICTURE_BYTES) return "tooLarge";
  return null;
}
