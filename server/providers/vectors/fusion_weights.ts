// The hybrid search's weights by the kind of embedder that made a workspace's vectors (issue 20).
import type { FusionOptions } from "./fusion.ts";
import { nativeEmbedder } from "../embedders/native.ts";
import type { Embedder } from "../embedders/types.ts";

/** The weights of `fuseHybrid` that depend on the embedder; the question is the search's own. */
export type FusionWeights = Pick<
  FusionOptions,
  "textWeight" | "phraseWeight" | "sentenceWeight" | "titleWeight"
>;

/**
 * "lexical": the built-in embedder (hashed words, server/providers/embedders/native.ts), whose vectors see what
 * BM25 sees, less well. "dense": any other (the local neural models, OpenAI, Ollama, Cohere...), whose vectors
 * match meaning as well as words.
 */
export type EmbedderKind = "lexical" | "dense";

const LEXICAL_FINGERPRINT = nativeEmbedder().fingerprint;

export function embedderKind(embedder: Pick<Embedder, "fingerprint">): EmbedderKind {
  return embedder.fingerprint === LEXICAL_FINGERPRINT ? "lexical" : "dense";
}

/**
 * The weights per kind, measured with `deno task eval` (bench/eval/README.md, "With a neural embedder").
 * The lexical embedder's are fusion.ts's defaults (BM25 0.8, cosine 0.2, phrases, title), tuned for it.
 * DENSE_PLACEHOLDER
 */
export const FUSION_WEIGHTS: Readonly<Record<EmbedderKind, Readonly<FusionWeights>>> = {
  lexical: {},
  dense: { textWeight: 0.6, phraseWeight: 0.1, sentenceWeight: 0, titleWeight: 0.2 },
};

/** The hybrid weights for a workspace whose vectors `embedder` made. */
export function fusionWeightsFor(embedder: Pick<Embedder, "fingerprint">): FusionWeights {
  return FUSION_WEIGHTS[embedderKind(embedder)];
}
