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
 * Cuts `text` to at most `maxTokens` cl100k tokens by removing its middle (the start and the end usually matter
 * most), marking the cut.
 */
export async function truncateMiddle(text: string, maxTokens: number): Promise<string> {
  const loaded = await loadEncoder();
  const tokens = loaded.encode(text, [], []);
  if (tokens.length <= maxTokens) return text;
  if (maxTokens <= 8) return loaded.decode(tokens.slice(0, Math.max(0, maxTokens)));
  const keep = maxTokens - 4;
  const head = Math.ceil(keep / 2);
  return `${loaded.decode(tokens.slice(0, head))}\n[…]\n${
    loaded.decode(tokens.slice(tokens.length - (keep - head)))
  }`;
}

/**
 * The document's `token_count_estimate` (api-contract.md §8.1): an exact count for short texts, and
 * `ceil(length / 8)` from 5120 characters on, where counting would cost more than it tells.
 */
export async function estimateTokens(text: string): Promise<number> {
  if (text.length >= 5120) return Math.ceil(text.length / 8);
  return (await tokenCounter())(text);
}
