import { ProviderError } from "../../errors.ts";
import type { MediaFile, Transcriber } from "./types.ts";

export interface WhisperApiOptions {
  /** The OpenAI-compatible base URL, with its `/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** The provider's name in messages. */
  name: string;
  fetch?: typeof fetch;
  /** How long the provider may take for one file. */
  timeoutMs?: number;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
  ".opus": "audio/ogg",
  ".m4a": "audio/mp4",
  ".webm": "audio/webm",
  ".mp4": "video/mp4",
};

export function mediaMime(name: string): string {
  const extension = /\.[^./\\]+$/.exec(name)?.[0].toLowerCase() ?? "";
  return MIME_BY_EXTENSION[extension] ?? "application/octet-stream";
}

/**
 * OpenAI's Whisper API and the servers that copy it: a multipart `POST {base}/audio/transcriptions` with the
 * file, the model and temperature 0, answered `{text}`.
 */
export function whisperApi(options: WhisperApiOptions): Transcriber {
  const base = options.baseUrl.replace(/\/+$/, "");
  return {
    name: options.name,
    async transcribe(file: MediaFile, signal?: AbortSignal): Promise<string> {
      const form = new FormData();
      form.append("file", new Blob([file.bytes as BlobPart], { type: mediaMime(file.name) }), file.name);
      form.append("model", options.model);
      form.append("temperature", "0");
      form.append("response_format", "json");
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 10 * 60 * 1000);
      let response: Response;
      try {
        response = await (options.fetch ?? fetch)(`${base}/audio/transcriptions`, {
          method: "POST",
          headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
          body: form,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        const reason = timeout.aborted ? "it did not answer in time" : (error as Error).message;
        throw new ProviderError(`${options.name} could not be reached: ${reason}.`, undefined, {
          cause: error,
        });
      }
      const body = await response.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        // Not JSON: reported below.
      }
      if (!response.ok) {
        const message = (parsed as { error?: { message?: string } } | null)?.error?.message ??
          `it answered HTTP ${response.status}`;
        throw new ProviderError(
          `${options.name} could not transcribe ${file.name}: ${sentence(message)}`,
          response.status,
        );
      }
      const text = (parsed as { text?: unknown } | null)?.text;
      if (typeof text !== "string") {
        throw new ProviderError(`${options.name} answered without a transcript for ${file.name}.`);
      }
      return text.trim();
    },
  };
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
