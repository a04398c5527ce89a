/**
 * What the hand-driven protocol adapters (Gemini, Cohere, AWS Bedrock) share: a call with a deadline whose
 * failures become ProviderErrors naming the provider, the provider's own error text, server-sent events and
 * the `<think>` wrapping of reasoning.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import { messageOf, ProviderError } from "../../errors.ts";

/** How long one answer may take in all, unless the caller says otherwise (the chat's own quiet time-out is shorter). */
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** `text` as a sentence: trimmed, ending with a full stop when it has no closing punctuation. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.?!]["')]?$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

const seconds = (ms: number) => {
  const value = Math.max(1, Math.round(ms / 1000));
  return `${value} second${value === 1 ? "" : "s"}`;
};

/**
 * One call to a provider: `signal` is the caller's (the client left) joined with the deadline; `failure` turns
 * whatever was thrown into the error to throw: the caller's abort as it is, a ProviderError as it is, the
 * deadline and network failures as sentences naming the provider.
 */
export function providerCall(name: string, callerSignal: AbortSignal, timeoutMs = DEFAULT_TIMEOUT_MS) {
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([callerSignal, deadline]);
  return {
    signal,
    failure(error: unknown, stage: "connect" | "read"): unknown {
      if (callerSignal.aborted) return error;
      if (error instanceof ProviderError) return error;
      if (deadline.aborted) {
        return new ProviderError(
          `${name} did not finish answering within ${seconds(timeoutMs)}.`,
          undefined,
          {
            cause: error,
          },
        );
      }
      return stage === "connect"
        ? new ProviderError(`Could not connect to ${name}: ${asSentence(messageOf(error))}`, undefined, {
          cause: error,
        })
        : new ProviderError(`The answer from ${name} broke off: ${asSentence(messageOf(error))}`, undefined, {
          cause: error,
        });
    },
  };
}

/**
 * The ProviderError for a response that is not a success: the provider's own message, as `extract` finds it in
 * the JSON body, else the start of the body, else the status text.
 */
export async function errorFromResponse(
  name: string,
  response: Response,
  extract: (body: Record<string, unknown>) => unknown,
): Promise<ProviderError> {
  const text = await response.text().catch(() => "");
  let message: unknown;
  try {
    message = extract(JSON.parse(text));
  } catch {
    // not JSON: the text itself
  }
  const words = typeof message === "string" && message.trim()
    ? message
    : text.trim().slice(0, 300) || response.statusText || "no reason given";
  return new ProviderError(`${name} answered ${response.status}: ${asSentence(words)}`, response.status);
}

/** Refuses a successful answer that is not the stream asked for (a proxy's page, a wrong base URL). */
export async function expectContentType(name: string, response: Response, wanted: string): Promise<void> {
  const type = response.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (type === wanted && response.body) return;
  await response.body?.cancel().catch(() => {});
  throw new ProviderError(
    `${name} answered with ${type || "no content type"} instead of a stream of tokens: is the address right?`,
  );
}

/** The JSON data of each server-sent event, with its event name. */
export async function* sseJson(
  name: string,
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<{ event?: string; data: Record<string, unknown> }> {
  const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events) {
    if (!event.data.trim() || event.data === "[DONE]") continue;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      throw new ProviderError(`${name} sent an event that is not JSON: ${event.data.slice(0, 200)}`);
    }
    if (typeof data !== "object" || data === null) {
      throw new ProviderError(`${name} sent an event that is not a JSON object: ${event.data.slice(0, 200)}`);
    }
    yield { event: event.event, data: data as Record<string, unknown> };
  }
}

/** Wraps reasoning in `<think>…</think>` ahead of the answer, as the chat shows it. */
export function thinkTags() {
  let open = false;
  return {
    thought(text: string): string {
      if (open) return text;
      open = true;
      return `<think>${text}`;
    },
    text(text: string): string {
      if (!open) return text;
      open = false;
      return `</think>${text}`;
    },
    /** The closing tag still owed at the end, if any. */
    close(): string | null {
      if (!open) return null;
      open = false;
      return "</think>";
    },
  };
}

/** The base64 data of a data URL. */
export const base64Of = (dataUrl: string) => dataUrl.replace(/^data:[^,]*,/, "");

/** Timed GET of a JSON model list, failures in the provider's words. */
export async function getJsonList(
  name: string,
  url: string,
  headers: Record<string, string>,
  options: { fetch?: typeof fetch; signal?: AbortSignal; timeoutMs?: number },
  extract: (body: Record<string, unknown>) => unknown,
): Promise<Record<string, unknown>> {
  const call = providerCall(
    name,
    options.signal ?? new AbortController().signal,
    options.timeoutMs ?? 10_000,
  );
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers, signal: call.signal });
  } catch (error) {
    throw call.failure(error, "connect");
  }
  if (!response.ok) throw await errorFromResponse(name, response, extract);
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw call.failure(error, "read");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: said below
  }
  if (typeof body !== "object" || body === null) {
    throw new ProviderError(
      `${name} answered the model list with something other than JSON: ${text.slice(0, 200) || "nothing"}`,
    );
  }
  return body as Record<string, unknown>;
}
