import type { ChatPart } from "../types.ts";

/** Reads a chat model's stream to its end: every part, the text of its deltas and its usage part. */
export async function collectParts(parts: AsyncIterable<ChatPart>) {
  const all: ChatPart[] = [];
  for await (const part of parts) all.push(part);
  const text = all.flatMap((part) => part.type === "text-delta" ? [part.text] : []).join("");
  return { all, text, usage: all.find((part) => part.type === "usage") };
}
