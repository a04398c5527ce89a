import { dirname, join } from "node:path";
import { ProviderError } from "../../errors.ts";
import { decodeToMono16k } from "./decode.ts";
import type { MediaFile, Transcriber } from "./types.ts";

export const HUGGING_FACE_HUB = "https://huggingface.co";

/** The files transformers.js reads for a Whisper model with 8-bit weights. */
export const WHISPER_MODEL_FILES = [
  "config.json",
  "generation_config.json",
  "preprocessor_config.json",
  "tokenizer.json",
  "tokenizer_config.json",
  "onnx/encoder_model_quantized.onnx",
  "onnx/decoder_model_merged_quantized.onnx",
] as const;

export interface LocalWhisperOptions {
  /** STORAGE_DIR/models: the model is read from `<modelsDir>/<owner>/<name>/`. */
  modelsDir: string;
  modelId: string;
  /** Where a missing model is downloaded from on first use. */
  hubUrl?: string;
  fetch?: typeof fetch;
}

type Recognizer = (
  audio: Float32Array,
  options: { chunk_length_s: number; stride_length_s: number; return_timestamps: boolean },
) => Promise<{ text: string } | { text: string }[]>;

interface Transformers {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    useFSCache: boolean;
    useBrowserCache: boolean;
    localModelPath: string;
  };
  pipeline(
    task: "automatic-speech-recognition",
    model: string,
    options: { dtype: string },
  ): Promise<Recognizer>;
}

export function whisperDirectory(modelsDir: string, modelId: string): string {
  return join(modelsDir, ...modelId.split("/"));
}

export async function missingWhisperFiles(modelsDir: string, modelId: string): Promise<string[]> {
  const missing: string[] = [];
  for (const file of WHISPER_MODEL_FILES) {
    try {
      const info = await Deno.stat(join(whisperDirectory(modelsDir, modelId), file));
      if (!info.isFile || info.size === 0) missing.push(file);
    } catch {
      missing.push(file);
    }
  }
  return missing;
}

/**
 * Fetches the model's files into a temporary folder beside the target and renames it into place, so a model
 * folder is complete or absent (the native embedder's model_download.ts does the same).
 */
export async function downloadWhisper(options: LocalWhisperOptions): Promise<void> {
  const hub = (options.hubUrl ?? HUGGING_FACE_HUB).replace(/\/+$/, "");
  const target = whisperDirectory(options.modelsDir, options.modelId);
  const staging = join(options.modelsDir, `.download-${crypto.randomUUID()}`);
  try {
    for (const file of WHISPER_MODEL_FILES) {
      const url = `${hub}/${options.modelId}/resolve/main/${file}`;
      const response = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(30 * 60 * 1000) });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new Error(`${url} answered ${response.status}`);
      }
      const path = join(staging, ...file.split("/"));
      await Deno.mkdir(dirname(path), { recursive: true });
      const output = await Deno.open(path, { write: true, createNew: true });
      try {
        for await (const chunk of response.body) {
          let offset = 0;
          while (offset < chunk.length) offset += await output.write(chunk.subarray(offset));
        }
      } finally {
        output.close();
      }
    }
    await Deno.mkdir(dirname(target), { recursive: true });
    await Deno.remove(target, { recursive: true }).catch(() => {});
    await Deno.rename(staging, target);
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    throw error;
  }
}

const recognizers = new Map<string, Promise<Recognizer>>();
let loadQueue: Promise<unknown> = Promise.resolve();

function loadRecognizer(options: LocalWhisperOptions): Promise<Recognizer> {
  const key = whisperDirectory(options.modelsDir, options.modelId);
  const cached = recognizers.get(key);
  if (cached) return cached;
  const loading = (async () => {
    if ((await missingWhisperFiles(options.modelsDir, options.modelId)).length > 0) {
      try {
        await downloadWhisper(options);
      } catch (error) {
        throw new ProviderError(
          `The transcription model ${options.modelId} is not installed and could not be downloaded ` +
            `(${(error as Error).message}). Copy the files of https://huggingface.co/${options.modelId} ` +
            `into ${key}, or choose another transcription provider.`,
          undefined,
          { cause: error },
        );
      }
    }
    const run = loadQueue.then(async () => {
      // Loaded on first use: onnxruntime brings a native library no other part of the server needs.
      const transformers = await import("@huggingface/transformers") as unknown as Transformers;
      const { env } = transformers;
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.useFSCache = false;
      env.useBrowserCache = false;
      env.localModelPath = `${options.modelsDir.replace(/\/+$/, "")}/`;
      try {
        return await transformers.pipeline("automatic-speech-recognition", options.modelId, { dtype: "q8" });
      } catch (error) {
        throw new ProviderError(
          `Cannot load the transcription model ${options.modelId}: ${(error as Error).message}`,
          undefined,
          { cause: error },
        );
      }
    });
    loadQueue = run.catch(() => {});
    return await run;
  })();
  recognizers.set(key, loading);
  loading.catch(() => recognizers.delete(key));
  return loading;
}

/**
 * Whisper run inside Lectern through transformers.js and onnxruntime: the file is decoded to 16 kHz mono
 * (decode.ts), then read in 30-second windows. The model is downloaded into STORAGE_DIR/models on first use.
 */
export function localWhisper(options: LocalWhisperOptions): Transcriber {
  return {
    name: "The built-in Whisper model",
    async transcribe(file: MediaFile): Promise<string> {
      const samples = file.samples ?? await decodeToMono16k(file.name, file.bytes);
      const recognizer = await loadRecognizer(options);
      const output = await recognizer(samples, {
        chunk_length_s: 30,
        stride_length_s: 5,
        return_timestamps: false,
      });
      const parts = Array.isArray(output) ? output : [output];
      return parts.map((part) => part.text).join(" ").replace(/\s+/g, " ").trim();
    },
  };
}
