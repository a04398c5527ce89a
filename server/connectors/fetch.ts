import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { AppError, messageOf } from "../errors.ts";
import { guardedFetch, type UrlGuardOptions } from "../http/url_guard.ts";
import { type ConnectorContext, ConnectorError } from "./source.ts";

/** What a connector's fetch uses: the operator's private hosts, and the guard's test resolver and fetch. */
export interface FetchDeps {
  config: Pick<Config, "connectorPrivateHosts">;
  linkFetch?: UrlGuardOptions & { fetch?: typeof fetch };
}

/** One request of a source may take this long (a slow self-hosted GitLab answers within it). */
export const CONNECTOR_REQUEST_TIMEOUT_MS = 60_000;
/**
 * The fetch every source uses: through the one URL guard (deps.linkFetch's test resolver and fetch when set),
 * with the operator's named private hosts (`LECTERN_CONNECTOR_PRIVATE_HOSTS`) allowed; a refusal or an
 * unreachable host becomes a `ConnectorError` naming the host.
 */
export function connectorFetch(
  deps: FetchDeps,
  signal: AbortSignal,
): ConnectorContext["fetch"] {
  return async (url, init = {}) => {
    const limit = AbortSignal.any([signal, AbortSignal.timeout(CONNECTOR_REQUEST_TIMEOUT_MS)]);
    try {
      return await guardedFetch(url, { ...init, signal: limit }, {
        ...deps.linkFetch,
        allowHosts: [...(deps.linkFetch?.allowHosts ?? []), ...deps.config.connectorPrivateHosts],
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const host = URL.canParse(url) ? new URL(url).host : url;
      if (error instanceof AppError) throw new ConnectorError(error.message);
      if (limit.aborted) throw new ConnectorError(`${host} did not answer in time.`);
      throw new ConnectorError(`Cannot reach ${host}: ${messageOf(error).replace(/\.?$/, ".")}`);
    }
  };
}

export function connectorContext(
  deps: FetchDeps & { log: Logger },
  signal: AbortSignal,
): ConnectorContext {
  return { fetch: connectorFetch(deps, signal), signal, log: deps.log };
}
