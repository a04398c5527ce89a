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

// FNV-1a, 32 bits, over UTF-16 code units, one step at a time: a feature's hash is built as its words are read,
// without making the feature's string ("w:word", "c:^wo", "b:word next").
const FNV_OFFSET = 0x811c9dc5;
/** A second FNV-1a basis: with the first hash it tells features apart (a 53-bit key) without their strings. */
const FNV_OFFSET_CHECK = 0x050c5d1f;
const step = (hash: number, code: number) => Math.imul(hash ^ code, 0x01000193);
function fnvOf(text: string, basis: number): number {
  let hash = basis;
  for (let index = 0; index < text.length; index++) hash = step(hash, text.charCodeAt(index));
  return hash;
}
const WORD = [fnvOf("w:", FNV_OFFSET), fnvOf("w:", FNV_OFFSET_CHECK)];
const TRIGRAM = [fnvOf("c:", FNV_OFFSET), fnvOf("c:", FNV_OFFSET_CHECK)];
const BIGRAM = [fnvOf("b:", FNV_OFFSET), fnvOf("b:", FNV_OFFSET_CHECK)];
const CARET = 94;
const DOLLAR = 36;
const SPACE = 32;

/** The distinct features of a text in the order first seen, with their weights and counts. */
class Features {
  private readonly index = new Map<number, number>();
  readonly hashes: number[] = [];
  readonly weights: number[] = [];
  readonly counts: number[] = [];

  add(hash: number, check: number, weight: number) {
    const unsigned = hash >>> 0;
    const key = unsigned * 0x200000 + ((check >>> 0) & 0x1fffff);
    const at = this.index.get(key);
    if (at !== undefined) this.counts[at]++;
    else {
      this.index.set(key, this.hashes.length);
      this.hashes.push(unsigned);
      this.weights.push(weight);
      this.counts.push(1);
    }
  }
}

/**
 * A deterministic lexical embedding that needs no model file: hashed word unigrams and bigrams plus
 * character trigrams (so "capital" meets "capitals"), sub-linear term weights, unit length. It runs
 * offline on anything, including a Raspberry Pi and the tests; neural.ts runs a neural model when one is installed.
 * Each feature is the FNV-1a hash of "w:word" (stop words weigh a fifth), "c:" and a trigram of "^word$" (words
 * over two letters, not stop words), "b:word next" (neither a stop word).
 */
export function embedLexical(text: string): number[] {
  const features = new Features();
  const words = wordsOf(text);
  const stops = words.map((word) => STOPWORDS.has(word));
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const stop = stops[index];
    let hash = WORD[0];
    let check = WORD[1];
    for (let at = 0; at < word.length; at++) {
      const code = word.charCodeAt(at);
      hash = step(hash, code);
      check = step(check, code);
    }
    features.add(hash, check, stop ? 0.2 : 1);
    if (!stop && word.length > 2) {
      const padded = word.length + 2;
      for (let start = 0; start + 3 <= padded; start++) {
        hash = TRIGRAM[0];
        check = TRIGRAM[1];
        for (let at = start; at < start + 3; at++) {
          const code = at === 0 ? CARET : at === padded - 1 ? DOLLAR : word.charCodeAt(at - 1);
          hash = step(hash, code);
          check = step(check, code);
        }
        features.add(hash, check, 0.25);
      }
    }
    if (index + 1 < words.length && !stop && !stops[index + 1]) {
      const next = words[index + 1];
      hash = BIGRAM[0];
      check = BIGRAM[1];
      for (let at = 0; at < word.length; at++) {
        const code = word.charCodeAt(at);
        hash = step(hash, code);
        check = step(check, code);
      }
      hash = step(hash, SPACE);
      check = step(check, SPACE);
      for (let at = 0; at < next.length; at++) {
        const code = next.charCodeAt(at);
        hash = step(hash, code);
        check = step(check, code);
      }
      features.add(hash, check, 0.5);
    }
  }
  const vector = new Float64Array(NATIVE_DIMENSIONS);
  const { hashes, weights, counts } = features;
  for (let index = 0; index < hashes.length; index++) {
    const hash = hashes[index];
    const sign = (hash & 0x80000000) === 0 ? 1 : -1;
    vector[hash % HASHED_DIMENSIONS] += sign * (weights[index] * (1 + Math.log(counts[index])));
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  const scale = norm > 0 ? Math.sqrt(1 - BASELINE) / norm : 0;
  const result = Array.from(vector, (value) => value * scale);
  result[HASHED_DIMENSIONS] = norm > 0 ? Math.sqrt(BASELINE) : 1;
  return result;
}

/** The built-in lexical embedder's fingerprint. */
export const NATIVE_FINGERPRINT = `native:${NATIVE_MODEL_ID}:${NATIVE_DIMENSIONS}`;

/**
 * Whether `embedder` is the built-in lexical one (pure JavaScript, deterministic, no model): the parse worker
 * can make its vectors (prepared_chunks.ts).
 */
export function isLexicalEmbedder(embedder: Pick<Embedder, "fingerprint">): boolean {
  return embedder.fingerprint === NATIVE_FINGERPRINT;
}

export function nativeEmbedder(): Embedder {
  return {
    fingerprint: NATIVE_FINGERPRINT,
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
