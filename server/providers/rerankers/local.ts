// The local cross-encoder: a sequence-classification model (ms-marco-MiniLM-L-6-v2 and the like) run in-process
// by the same transformers.js and onnxruntime as the neural embedder, from STORAGE_DIR/models; a model not yet
// there is fetched once from its hub, by the embedder's downloads (model_download.ts).
import { ProviderError } from "../../errors.ts";
import type { ModelDownloads } from "../embedders/model_download.ts";
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

/** The downloads a local reranker starts when its model is missing (the embedder's: one per model at a time). */
export type RerankerDownloads = Pick<ModelDownloads, "status" | "start">;

/**
 * Starts fetching a missing model (unless it is being fetched), and says so: the question that finds it
 * missing keeps the search order (rerank.ts), and the ones after the download are reranked.
 */
function fetchMissing(downloads: RerankerDownloads, modelId: string, key: string, missing: string[]): never {
  const status = downloads.status(modelId);
  if (status.state !== "downloading") {
    const previous = status.state === "failed" ? ` (the last attempt failed: ${status.error})` : "";
    downloads.start(modelId);
    throw new ProviderError(
      `The reranking model ${modelId} is not installed yet: its download from the model hub has started${previous}.`,
    );
  }
  throw new ProviderError(
    `The reranking model ${modelId} is being downloaded (${status.receivedBytes} bytes so far); ${key} lacks ${
      missing.join(", ")
    }.`,
  );
}

function load(modelsDir: string, modelId: string, downloads?: RerankerDownloads) {
  const key = modelDirectory(modelsDir, modelId);
  const cached = loaded.get(key);
  if (cached) return cached;
  const loading = (async () => {
    const missing = await missingModelFiles(modelsDir, modelId);
    if (missing.length > 0) {
      if (downloads) fetchMissing(downloads, modelId, key, missing);
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

export interface LocalRerankerOptions {
  modelsDir: string;
  modelId: string;
  /** Fetches a missing model from its hub (the instance's model downloads); without it a missing model fails. */
  downloads?: RerankerDownloads;
}

export function localReranker(options: LocalRerankerOptions): Reranker {
  return {
    label: `native:${options.modelId}`,
    async score(query, texts, signal) {
      const { tokenizer, model } = await load(options.modelsDir, options.modelId, options.downloads);
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
