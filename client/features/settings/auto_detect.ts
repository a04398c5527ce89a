/** Each candidate endpoint gets 2000 ms to answer. */
export const AUTO_DETECT_TIMEOUT_MS = 2000;

/**
 * Where a local model server usually listens: localhost, 127.0.0.1, host.docker.internal and the
 * host this page came from, each with the provider's port and path; duplicates removed, order kept.
 */
export function autoDetectCandidates(suffix: string | readonly string[], pageHostname?: string): string[] {
  const hosts = ["localhost", "127.0.0.1", "host.docker.internal"];
  if (pageHostname) hosts.push(pageHostname);
  const suffixes = typeof suffix === "string" ? [suffix] : suffix;
  return [...new Set(suffixes.flatMap((each) => hosts.map((host) => `http://${host}${each}`)))];
}

/** Asks one endpoint for its models; it must give up when `signal` aborts. */
export type EndpointLookup<M> = (endpoint: string, signal: AbortSignal) => Promise<readonly M[]>;

export interface DetectResult<M> {
  /** The first endpoint that answered with at least one model, or null when none did. */
  endpoint: string | null;
  models: readonly M[];
  /** Endpoints that failed, timed out or listed no models before the outcome was known, in that order. */
  failed: string[];
}

/**
 * Endpoint auto-detect (docs/api-compat.md#model-lookups): asks every candidate at once, each with its own
 * time-out, and takes the first that returns at least one model. The others are then aborted. Resolves with
 * null when every candidate failed, timed out or had no models.
 */
export function detectEndpoint<M>(
  candidates: readonly string[],
  lookup: EndpointLookup<M>,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<DetectResult<M>> {
  const timeoutMs = options.timeoutMs ?? AUTO_DETECT_TIMEOUT_MS;
  const failed: string[] = [];
  const controllers = candidates.map(() => new AbortController());
  const abortAll = () => controllers.forEach((controller) => controller.abort());
  options.signal?.addEventListener("abort", abortAll, { once: true });

  return new Promise((resolve) => {
    let settled = false;
    let pending = candidates.length;
    const finish = (result: DetectResult<M>) => {
      if (settled) return;
      settled = true;
      abortAll();
      options.signal?.removeEventListener("abort", abortAll);
      resolve(result);
    };
    if (pending === 0) return finish({ endpoint: null, models: [], failed });

    candidates.forEach((endpoint, index) => {
      const controller = controllers[index];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error("Request timed out."));
        }, timeoutMs);
      });
      const attempt = Promise.resolve().then(() => lookup(endpoint, controller.signal));
      Promise.race([attempt, timedOut]).then(
        (models) => {
          if (settled) return;
          if (models.length > 0) return finish({ endpoint, models, failed: [...failed] });
          failed.push(endpoint);
        },
        () => {
          if (!settled) failed.push(endpoint);
        },
      ).finally(() => {
        clearTimeout(timer);
        pending -= 1;
        if (pending === 0) finish({ endpoint: null, models: [], failed: [...failed] });
      });
      // The lookup may reject after losing the race; that is expected and not reported.
      attempt.catch(() => {});
    });
  });
}

/** Whether endpoint auto-detect is offered: on an editable page, for a provider that has it and a base path. */
export function autoDetectAvailable(
  enabled: boolean,
  provider: { autoDetect?: unknown; lookup?: { basePathField?: string } },
): boolean {
  return enabled && !!provider.autoDetect && !!provider.lookup?.basePathField;
}
