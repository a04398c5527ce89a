import { createParser } from "eventsource-parser";
import { useEffect, useState } from "react";
import {
  type EmbeddingJob,
  EmbeddingJobsAnswer,
  EmbeddingProgressFrame,
  NativeModelsAnswer,
} from "../../../shared/api/embedding.ts";
import { api, API_BASE, ApiError, authHeaders } from "../../lib/api.ts";

export function fetchEmbeddingJobs(signal?: AbortSignal): Promise<EmbeddingJobsAnswer> {
  return api("/system/embedding-jobs", { schema: EmbeddingJobsAnswer, signal });
}

/** Reads `GET /api/system/embedding-jobs/progress` (SSE, with the Bearer token) until it ends. */
export async function readProgress(
  onFrame: (frame: EmbeddingProgressFrame) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(`${API_BASE}/system/embedding-jobs/progress`, {
    headers: authHeaders(),
    signal,
  });
  if (!response.ok || !response.body) {
    throw new ApiError(`The progress stream answered ${response.status}`, response.status, null);
  }
  const parser = createParser({
    onEvent(event) {
      const frame = EmbeddingProgressFrame.safeParse(JSON.parse(event.data));
      if (frame.success) onFrame(frame.data);
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

export interface EmbeddingJobView {
  answer: EmbeddingJobsAnswer | null;
  /** The latest progress frame of a running job. */
  live: EmbeddingProgressFrame | null;
  error: string | null;
}

/**
 * The active embedder and the re-embedding job, kept current: admins follow the progress stream; a reader
 * without access to it (a manager) polls while a job runs. `refreshKey` changes after every save.
 */
export function useEmbeddingJob(stream: boolean, refreshKey: number): EmbeddingJobView {
  const [view, setView] = useState<EmbeddingJobView>({ answer: null, live: null, error: null });
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const answer = await fetchEmbeddingJobs(signal);
      setView((current) => ({ ...current, answer, error: null }));
      return answer;
    };
    (async () => {
      try {
        const answer = await load();
        if (stream) {
          await readProgress((frame) => setView((current) => ({ ...current, live: frame })), signal);
          await load();
        } else if (answer.job?.state === "running") {
          const poll = async () => {
            const next = await load();
            if (next.job?.state === "running" && !signal.aborted) timer = setTimeout(poll, 2000);
          };
          timer = setTimeout(poll, 2000);
        }
      } catch (caught) {
        if ((caught as Error).name !== "AbortError") {
          setView((current) => ({ ...current, error: (caught as Error).message }));
        }
      }
    })();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [stream, refreshKey]);
  return view;
}

export function retryEmbeddingJob(): Promise<unknown> {
  return api("/system/embedding-jobs/retry", { method: "POST" });
}

export function fetchNativeModels(signal?: AbortSignal): Promise<NativeModelsAnswer> {
  return api("/system/native-embedding-models", { schema: NativeModelsAnswer, signal });
}

export function downloadNativeModel(model: string): Promise<unknown> {
  return api("/system/native-embedding-models/download", { json: { model } });
}

/**
 * The counts the progress bar shows: the live frame of the running job when it belongs to that job, else the
 * job's own counts; null while no job runs.
 */
export function jobProgress(
  job: EmbeddingJob | null,
  live: EmbeddingProgressFrame | null,
): { done: number; total: number; failed: number } | null {
  if (job?.state !== "running") return null;
  return live && live.jobId === job.id ? live : job;
}

type NativeModel = NativeModelsAnswer["models"][number];

/** What the native model list shows for a model: built in, installed, downloading, or a download to offer. */
export function nativeModelState(
  model: NativeModel,
): "builtIn" | "installed" | "downloading" | "notInstalled" {
  if (model.builtIn) return "builtIn";
  if (model.installed) return "installed";
  return model.download.state === "downloading" ? "downloading" : "notInstalled";
}

/** Whether any model is downloading, so the list asks again for its progress. */
export function anyDownloading(models: readonly NativeModel[] | null): boolean {
  return models?.some((model) => model.download.state === "downloading") ?? false;
}

/** Megabytes received so far, with one decimal. */
export function receivedMegabytes(model: NativeModel): string {
  return (model.download.receivedBytes / 1024 / 1024).toFixed(1);
}
