import type { Tiktoken } from "js-tiktoken/lite";

let encoder: Promise<Tiktoken> | null = null;

// The cl100k ranks are a large table; they load on the first count, not at start.
function loadEncoder(): Promise<Tiktoken> {
  encoder ??= Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/cl100k_base")])
    .then(([{ Tiktoken }, ranks]) => new Tiktoken(ranks.default));
  return encoder;
}

/** A counter for cl100k tokens (the tokenizer the reference uses for its estimates). */
export async function tokenCounter(): Promise<(text: string) => number> {
  const loaded = await loadEncoder();
  return (text) => loaded.encode(text, [], []).length;
}

/**
 * The document's `token_count_estimate` (api-contract.md §8.1): an exact count for short texts, and
 * `ceil(length / 8)` from 5120 characters on, where counting would cost more than it tells.
 */
export async function estimateTokens(text: string): Promise<number> {
  if (text.length >= 5120) return Math.ceil(text.length / 8);
  return (await tokenCounter())(text);
}
