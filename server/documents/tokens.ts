import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";

let encoder: Tiktoken | null = null;

/** Exact cl100k token count (the tokenizer the reference uses for its estimates). */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100k);
  return encoder.encode(text, [], []).length;
}

/**
 * The document's `token_count_estimate` (api-contract.md §8.1): an exact count for short texts, and
 * `ceil(length / 8)` from 5120 characters on, where counting would cost more than it tells.
 */
export function estimateTokens(text: string): number {
  return text.length >= 5120 ? Math.ceil(text.length / 8) : countTokens(text);
}
