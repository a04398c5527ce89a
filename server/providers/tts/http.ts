import { ProviderError } from "../../errors.ts";
import { audioMime } from "./audio_format.ts";
import type { Speech } from "./types.ts";

export const TTS_TIMEOUT_MS = 120_000;

/**
 * POSTs a JSON speech request and reads audio bytes back. A refusal carries the provider's own message; an
 * answer that is not audio (an error page, JSON) is a ProviderError saying what came back.
 */
export async function fetchSpeech(
  name: string,
  url: string,
  init: { headers: Record<string, string>; body: unknown; fetch?: typeof fetch; signal?: AbortSignal },
): Promise<Speech> {
  const timeout = AbortSignal.timeout(TTS_TIMEOUT_MS);
  let response: Response;
  try {
    response = await (init.fetch ?? fetch)(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...init.headers },
      body: JSON.stringify(init.body),
      signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
    });
  } catch (error) {
    const reason = timeout.aborted ? "it did not answer in time" : (error as Error).message;
    throw new ProviderError(`${name} could not be reached: ${reason}.`, undefined, { cause: error });
  }
  const contentType = response.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) {
    throw new ProviderError(
      `${name} refused the speech request: ${errorText(bytes, response.status)}`,
      response.status,
    );
  }
  if (/json|text\/|html/i.test(contentType) || bytes.length === 0) {
    throw new ProviderError(
      `${name} answered ${contentType || "an empty body"} instead of audio.`,
    );
  }
  return { bytes, mime: audioMime(bytes) };
}

function errorText(bytes: Uint8Array, status: number): string {
  const text = new TextDecoder().decode(bytes.subarray(0, 4096));
  let message: string | undefined;
  try {
    const body = JSON.parse(text);
    message = body?.error?.message ?? body?.detail?.message ?? body?.detail ?? body?.message;
  } catch {
    // Not JSON.
  }
  const found = typeof message === "string" && message.trim() ? message.trim() : `HTTP ${status}`;
  return /[.!?]$/.test(found) ? found : `${found}.`;
}
