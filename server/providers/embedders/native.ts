import { NATIVE_LEXICAL_MODEL } from "../../../shared/providers/embedder_catalog.ts";
import type { Embedder } from "./types.ts";
import { STOPWORDS, wordsOf } from "../vectors/words.ts";

export const NATIVE_DIMENSIONS = 384;
export const NATIVE_MODEL_ID = NATIVE_LEXICAL_MODEL;
const HASHED_DIMENSIONS = NATIVE_DIMENSIONS - 1;
/**
 * Share of every vector's squared length held by one constant dimension. Lexical overlap gives small raw
 * cosines (0.05-0.4 for related text, about 0 for unrelated), below the similarity thresholds the spec names
 * (low 0.25, medium 0.5, high 0.75). The constant part maps raw cosine r to 0.15 + 0.85 r: text that shares no
 * word scores about 0.15 and stray overlaps (r below about 0.1) stay under the default threshold of 0.25.
 */
const BASELINE = 0.15;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function addFeature(vector: Float64Array, feature: string, weight: number) {
  const hash = fnv1a(feature);
  const sign = (hash & 0x80000000) === 0 ? 1 : -1;
  vector[hash % HASHED_DIMENSIONS] += sign * weight;
}

/**
 * A deterministic lexical embedding that needs no model file: hashed word unigrams and bigrams plus
 * character trigrams (so "capital" meets "capitals"), sub-linear term weights, unit length. It runs
 * offline on anything, including a Raspberry Pi and the tests; neural.ts runs a neural model when one is installed.
 */
export function embedLexical(text: string): number[] {
  const counts = new Map<string, { weight: number; count: number }>();
  const bump = (feature: string, weight: number) => {
    const seen = counts.get(feature);
    if (seen) seen.count++;
    else counts.set(feature, { weight, count: 1 });
  };
  const words = wordsOf(text);
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const stop = STOPWORDS.has(word);
    bump(`w:${word}`, stop ? 0.2 : 1);
    if (!stop && word.length > 2) {
      const padded = `^${word}$`;
      for (let start = 0; start + 3 <= padded.length; start++) {
        bump(`c:${padded.slice(start, start + 3)}`, 0.25);
      }
    }
    const next = words[index + 1];
    if (next !== undefined && !stop && !STOPWORDS.has(next)) bump(`b:${word} ${next}`, 0.5);
  }
  const vector = new Float64Array(NATIVE_DIMENSIONS);
  for (const [feature, { weight, count }] of counts) {
    addFeature(vector, feature, weight * (1 + Math.log(count)));
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  const scale = norm > 0 ? Math.sqrt(1 - BASELINE) / norm : 0;
  const result = Array.from(vector, (value) => value * scale);
  result[HASHED_DIMENSIONS] = norm > 0 ? Math.sqrt(BASELINE) : 1;
  return result;
}

export function nativeEmbedder(): Embedder {
  return {
    fingerprint: `native:${NATIVE_MODEL_ID}:${NATIVE_DIMENSIONS}`,
    modelId: NATIVE_MODEL_ID,
    maxChunkLength: 1000,
    maxInputsPerCall: 1000,
    embed(texts: string[]) {
      return Promise.resolve(texts.map(embedLexical));
    },
    embedQuery(text: string) {
      return Promise.resolve(embedLexical(text));
    },
  };
}
