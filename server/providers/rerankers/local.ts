// The local cross-encoder: a sequence-classification model (ms-marco-MiniLM-L-6-v2 and the like) run in-process
// by the same transformers.js and onnxruntime as the neural embedder, from STORAGE_DIR/models only.
import { ProviderError } from "../../errors.ts";
import { missingModelFiles, modelDirectory } from "../embedders/neural.ts";
import type { Reranker } from "./types.ts";

interface Tensor {
  tolist(): unknown;
}
type Tokenizer = (
  texts: string[],
  options: { text_pair: string[]; padding: boolean; truncation: boolean },
) => Record<string, unknown>;
type Model = (inputs: Record<string, unknown>) => Promise<{ logits: Tensor }>;

interface Transformers {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; useFSCache: boolean; localModelPath: string };
  AutoTokenizer: { from_pretrained(id: string): Promise<Tokenizer> };
  AutoModelForSequenceClassification: {
    from_pretrained(id: string, options: { dtype: string }): Promise<Model>;
  };
}

const loaded = new Map<string, Promise<{ tokenizer: Tokenizer; model: Model }>>();

function load(modelsDir: string, modelId: string) {
  const key = modelDirectory(modelsDir, modelId);
  const cached = loaded.get(key);
  if (cached) return cached;
  const loading = (async () => {
    const missing = await missingModelFiles(modelsDir, modelId);
    if (missing.length > 0) {
      throw new ProviderError(
        `The reranking model ${modelId} is not installed: ${key} lacks ${missing.join(", ")}.`,
      );
    }
    const transformers = await import("@huggingface/transformers") as unknown as Transformers;
    transformers.env.allowRemoteModels = false;
    transformers.env.allowLocalModels = true;
    transformers.env.useFSCache = false;
    transformers.env.localModelPath = `${modelsDir.replace(/\/+$/, "")}/`;
    const [tokenizer, model] = await Promise.all([
      transformers.AutoTokenizer.from_pretrained(modelId),
      transformers.AutoModelForSequenceClassification.from_pretrained(modelId, { dtype: "q8" }),
    ]);
    return { tokenizer, model };
  })();
  loaded.set(key, loading);
  loading.catch(() => loaded.delete(key));
  return loading;
}

/** Candidates scored per model call: bounds the activations held at once. */
const BATCH = 16;

export function localReranker(options: { modelsDir: string; modelId: string }): Reranker {
  return {
    label: `native:${options.modelId}`,
    async score(query, texts, signal) {
      const { tokenizer, model } = await load(options.modelsDir, options.modelId);
      const scores: number[] = [];
      for (let start = 0; start < texts.length; start += BATCH) {
        signal?.throwIfAborted();
        const batch = texts.slice(start, start + BATCH);
        const inputs = tokenizer(batch.map(() => query), {
          text_pair: batch,
          padding: true,
          truncation: true,
        });
        const rows = (await model(inputs)).logits.tolist() as number[][];
        for (const row of rows) scores.push(Number(row[0]));
      }
      return scores;
    },
  };
}
