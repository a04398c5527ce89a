import { join } from "node:path";
import { ProviderError } from "../../errors.ts";
import type { Embedder } from "./types.ts";

/** The files a feature-extraction model needs, as transformers.js lays them out (8-bit weights: 23 MB). */
export const NEURAL_MODEL_FILES = [
  "config.json",
  "tokenizer.json",
  "tokenizer_config.json",
  "onnx/model_quantized.onnx",
] as const;

/** Where a model's files live: `STORAGE_DIR/models/<owner>/<name>/`. */
export function modelDirectory(modelsDir: string, modelId: string): string {
  return join(modelsDir, ...modelId.split("/"));
}

export async function missingModelFiles(modelsDir: string, modelId: string): Promise<string[]> {
  const missing: string[] = [];
  for (const file of NEURAL_MODEL_FILES) {
    try {
      const info = await Deno.stat(join(modelDirectory(modelsDir, modelId), file));
      if (!info.isFile || info.size === 0) missing.push(file);
    } catch {
      missing.push(file);
    }
  }
  return missing;
}

type Extractor = (
  texts: string[],
  options: { pooling: "mean"; normalize: boolean },
) => Promise<{ tolist(): unknown }>;

interface Transformers {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    useFSCache: boolean;
    useBrowserCache: boolean;
    localModelPath: string;
  };
  pipeline(task: "feature-extraction", model: string, options: { dtype: string }): Promise<Extractor>;
}

const extractors = new Map<string, Promise<Extractor>>();
// transformers.js reads where models are from one global `env`, so loads run one after another.
let loadQueue: Promise<unknown> = Promise.resolve();

function loadExtractor(modelsDir: string, modelId: string): Promise<Extractor> {
  const key = modelDirectory(modelsDir, modelId);
  const cached = extractors.get(key);
  if (cached) return cached;
  const loading = (async () => {
    const missing = await missingModelFiles(modelsDir, modelId);
    if (missing.length > 0) {
      throw new ProviderError(
        `The embedding model ${modelId} is not installed: ${key} lacks ${missing.join(", ")}. ` +
          `Download it in Settings → Embedder, or copy the files of https://huggingface.co/${modelId} there.`,
      );
    }
    const run = loadQueue.then(async () => {
      // Loaded on first use: onnxruntime brings a native library no other part of the server needs.
      const transformers = await import("@huggingface/transformers") as unknown as Transformers;
      const { env } = transformers;
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.useFSCache = false;
      env.useBrowserCache = false;
      env.localModelPath = `${modelsDir.replace(/\/+$/, "")}/`;
      try {
        return await transformers.pipeline("feature-extraction", modelId, { dtype: "q8" });
      } catch (error) {
        throw new ProviderError(
          `Cannot load the embedding model ${modelId}: ${(error as Error).message}`,
          undefined,
          {
            cause: error,
          },
        );
      }
    });
    loadQueue = run.catch(() => {});
    return await run;
  })();
  extractors.set(key, loading);
  loading.catch(() => extractors.delete(key));
  return loading;
}

/** Forgets a loaded model, so files replaced on disk are read again. */
export function unloadModel(modelsDir: string, modelId: string) {
  extractors.delete(modelDirectory(modelsDir, modelId));
}

export interface NeuralEmbedderOptions {
  modelsDir: string;
  modelId: string;
  dimensions: number;
  maxChunkLength: number;
}

/**
 * A sentence-embedding model (all-MiniLM-L6-v2 and the like) run in-process through transformers.js and
 * onnxruntime: mean pooling over the token vectors, unit length. The model files are read from
 * STORAGE_DIR/models only; nothing is fetched from the network here.
 */
export function neuralEmbedder(options: NeuralEmbedderOptions): Embedder {
  async function run(texts: string[]): Promise<number[][]> {
    const extractor = await loadExtractor(options.modelsDir, options.modelId);
    const output = await extractor(texts, { pooling: "mean", normalize: true });
    const vectors = output.tolist() as number[][];
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new ProviderError(`The embedding model ${options.modelId} returned an unexpected result.`);
    }
    return vectors;
  }
  return {
    fingerprint: `native:${options.modelId}:${options.dimensions}`,
    modelId: options.modelId,
    maxChunkLength: options.maxChunkLength,
    // Inference holds the whole batch's activations in memory; small batches keep that bounded.
    maxInputsPerCall: 16,
    embed: (texts) => texts.length === 0 ? Promise.resolve([]) : run(texts),
    embedQuery: async (text) => (await run([text]))[0],
  };
}
