import { dirname, join } from "node:path";
import { messageOf } from "../../errors.ts";
import { modelDirectory, NEURAL_MODEL_FILES, unloadModel } from "./neural.ts";

export const HUGGING_FACE_HUB = "https://huggingface.co";
const FILE_TIMEOUT_MS = 10 * 60 * 1000;

export type DownloadState = "idle" | "downloading" | "ready" | "failed";

export interface DownloadStatus {
  state: DownloadState;
  receivedBytes: number;
  error: string | null;
}

/**
 * Fetches a model's files from the hub into a temporary folder beside the target, then renames it into place,
 * so a model folder is either complete or absent. The hub is a fixed address, not one a user typed.
 */
export async function downloadModel(
  modelId: string,
  modelsDir: string,
  options: {
    hubUrl?: string;
    fetch?: typeof fetch;
    signal?: AbortSignal;
    onBytes?: (bytes: number) => void;
  } = {},
): Promise<void> {
  const hub = (options.hubUrl ?? HUGGING_FACE_HUB).replace(/\/+$/, "");
  const target = modelDirectory(modelsDir, modelId);
  const staging = join(modelsDir, `.download-${crypto.randomUUID()}`);
  try {
    for (const file of NEURAL_MODEL_FILES) {
      const url = `${hub}/${modelId}/resolve/main/${file}`;
      const timeout = AbortSignal.timeout(FILE_TIMEOUT_MS);
      const response = await (options.fetch ?? fetch)(url, {
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      });
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
          options.onBytes?.(chunk.length);
        }
      } finally {
        output.close();
      }
    }
    await Deno.mkdir(dirname(target), { recursive: true });
    await Deno.remove(target, { recursive: true }).catch(() => {});
    await Deno.rename(staging, target);
    unloadModel(modelsDir, modelId);
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    throw error;
  }
}

/** One download per model at a time, with its progress kept for the settings screen. */
export class ModelDownloads {
  private readonly statuses = new Map<string, DownloadStatus>();

  constructor(
    private readonly modelsDir: string,
    private readonly options: { hubUrl?: string; fetch?: typeof fetch } = {},
  ) {}

  status(modelId: string): DownloadStatus {
    return this.statuses.get(modelId) ?? { state: "idle", receivedBytes: 0, error: null };
  }

  /** Starts fetching the model unless a download of it is running; resolves when it ends. */
  start(modelId: string, signal?: AbortSignal): Promise<void> {
    if (this.status(modelId).state === "downloading") return Promise.resolve();
    const status: DownloadStatus = { state: "downloading", receivedBytes: 0, error: null };
    this.statuses.set(modelId, status);
    return downloadModel(modelId, this.modelsDir, {
      ...this.options,
      signal,
      onBytes: (bytes) => status.receivedBytes += bytes,
    }).then(
      () => {
        status.state = "ready";
      },
      (error) => {
        status.state = "failed";
        status.error = `Could not download ${modelId}: ${messageOf(error)}`;
      },
    );
  }
}
