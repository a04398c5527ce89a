import { guardedFetch } from "../http/url_guard.ts";
import { silentLogger } from "../log.ts";
import type { ConnectorContext } from "../connectors/source.ts";

/** A public address that stands for the internet in these tests (the guard accepts it). */
export const PUBLIC_TEST_ADDRESS = "93.184.215.14";

export interface TestNetwork {
  /** The context a source gets: its fetch goes through the URL guard, as the import's does. */
  context: ConnectorContext;
  /** Every URL that reached a fake, in order. */
  requests: string[];
  /** Aborts the context's signal (a cancelled import). */
  abort(): void;
}

/**
 * A network of named hosts for connector tests: each name in `hosts` resolves to a public address for the URL
 * guard, and the test's fetch (the guard's existing test allowance) takes its requests to the fake on
 * loopback that plays that host (`http://127.0.0.1:<port>`). Names in `privateHosts` resolve to a private
 * address, so the guard refuses them; any other name does not resolve. Nothing leaves 127.0.0.1.
 */
export function testNetwork(
  hosts: Record<string, string>,
  options: { privateHosts?: string[] } = {},
): TestNetwork {
  const requests: string[] = [];
  const controller = new AbortController();
  const resolve = (hostname: string) =>
    Promise.resolve(
      hostname in hosts
        ? [PUBLIC_TEST_ADDRESS]
        : options.privateHosts?.includes(hostname)
        ? ["10.0.0.5"]
        : [],
    );
  const toFake = ((input: URL | RequestInfo, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const base = hosts[url.hostname];
    if (!base) return Promise.reject(new Error(`The guard let ${url.href} through to the network.`));
    requests.push(url.href);
    return fetch(`${base}${url.pathname}${url.search}`, init);
  }) as typeof fetch;
  return {
    requests,
    abort: () => controller.abort(),
    context: {
      fetch: (url, init) =>
        guardedFetch(url, { signal: controller.signal, ...init }, { resolve, fetch: toFake }),
      signal: controller.signal,
      log: silentLogger,
    },
  };
}

/**
 * The app's `linkFetch` for a test: each name in `hosts` resolves to a public test address for the URL guard,
 * and the test's fetch takes its requests to the fake on loopback that plays it; nothing else resolves.
 */
export function fakeHosts(hosts: Record<string, string>) {
  return {
    resolve: (hostname: string) => Promise.resolve(hostname in hosts ? [PUBLIC_TEST_ADDRESS] : []),
    fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const base = hosts[url.hostname];
      if (!base) return Promise.reject(new Error(`The guard let ${url.href} through.`));
      return fetch(`${base}${url.pathname}${url.search}`, init);
    }) as typeof fetch,
  };
}

/** Every item a source yields, read to the end. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
