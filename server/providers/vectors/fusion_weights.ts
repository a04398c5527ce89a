// The hybrid search's weights by the kind of embedder that made a workspace's vectors (issue 20).
import type { FusionOptions } from "./fusion.ts";
import { nativeEmbedder } from "../embedders/native.ts";
import type { Embedder } from "../embedders/types.ts";

/** The weights of `fuseHybrid` that depend on the embedder; the question is the search's own. */
export type FusionWeights = Pick<
  FusionOptions,
  | "textWeight"
  | "phraseWeight"
  | "sentenceWeight"
  | "titleWeight"
  | "typedSentenceWeight"
  | "answerTypeWeight"
  | "relatedShare"
  | "softWeight"
  | "softSentenceShare"
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
 * The weights per kind, measured with `deno task eval` and bench/eval/fusion_study.ts (bench/eval/README.md,
 * "With a neural embedder"). The lexical embedder's are fusion.ts's defaults (BM25 0.8, cosine 0.2, with the phrase,
 * sentence, answer-type and title shares fitted in the third round), tuned for its vectors, which see what BM25
 * sees, less well. A dense model's vectors find passages
 * that share meaning but not words, so its cosine counts twice as much: BM25 0.6, cosine 0.4, with the phrase and
 * title shares as measured and no sentence or answer-type share (pinned here, so a change of fusion.ts's defaults for the lexical embedder does not
 * move them unmeasured). With a neural sentence encoder (the Universal Sentence Encoder lite, the one model whose
 * weights a reachable registry ships) this was the best on the tuning set (squad-a: recall@4 0.953 and MRR@10
 * 0.892, against 0.940 and 0.871 with the lexical weights) and beat both sides at recall@1/4/10 and MRR@10 on
 * squad-b and the Rust book headings; cosine shares of 0.7 and more lost to BM25 alone on the Rust set.
 */
export const FUSION_WEIGHTS: Readonly<Record<EmbedderKind, Readonly<FusionWeights>>> = {
  lexical: {},
  dense: {
    textWeight: 0.6,
    phraseWeight: 0.1,
    sentenceWeight: 0,
    titleWeight: 0.2,
    typedSentenceWeight: 0,
    answerTypeWeight: 0,
    relatedShare: 0,
    // The soft matches (word vectors) were measured with the lexical embedder only: a dense model's cosine
    // already matches meaning, so they stay off here until measured.
    softWeight: 0,
    softSentenceShare: 0,
  },
};

/** The hybrid weights for a workspace whose vectors `embedder` made. */
export function fusionWeightsFor(embedder: Pick<Embedder, "fingerprint">): FusionWeights {
  return FUSION_WEIGHTS[embedderKind(embedder)];
}
