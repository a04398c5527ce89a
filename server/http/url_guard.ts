import { AppError } from "../errors.ts";

/**
 * The one guard for every URL the server fetches for a user (decisions.md "Security"): http(s) only, and the
 * resolved addresses are checked. Loopback and private networks are refused unless `allowPrivate` (an admin's
 * own LLM or embedder base path, e.g. a local Ollama); link-local, cloud metadata, unspecified and multicast
 * addresses are always refused. IPv4-mapped IPv6 addresses are judged by their IPv4 part.
 */
export interface UrlGuardOptions {
  allowPrivate?: boolean;
  /** Resolves a host name to its addresses; tests pass their own. */
  resolve?: (hostname: string) => Promise<string[]>;
}

export type AddressClass = "public" | "loopback" | "private" | "link-local" | "unspecified" | "multicast";

function ipv4Class(address: string): AddressClass {
  const [a, b] = address.split(".").map(Number);
  if (a === 127) return "loopback";
  if (a === 0) return "unspecified";
  if (
    a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  ) {
    return "private";
  }
  if (a === 169 && b === 254) return "link-local";
  if (a >= 224) return "multicast";
  return "public";
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The class of an IP address literal, or null when `address` is not one. */
export function addressClass(address: string): AddressClass | null {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (IPV4.test(bare)) return bare.split(".").every((part) => Number(part) <= 255) ? ipv4Class(bare) : null;
  if (!bare.includes(":")) return null;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(bare);
  if (mapped) return ipv4Class(mapped[1]);
  const hexMapped = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(bare);
  if (hexMapped) {
    const high = parseInt(hexMapped[1], 16);
    const low = parseInt(hexMapped[2], 16);
    return ipv4Class(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  if (bare === "::1") return "loopback";
  if (bare === "::") return "unspecified";
  if (/^fe[89ab]/.test(bare)) return "link-local";
  if (/^f[cd]/.test(bare)) return bare.startsWith("fd00:ec2::254") ? "link-local" : "private";
  if (bare.startsWith("ff")) return "multicast";
  return "public";
}

async function systemResolve(hostname: string): Promise<string[]> {
  const results = await Promise.allSettled([
    Deno.resolveDns(hostname, "A"),
    Deno.resolveDns(hostname, "AAAA"),
  ]);
  return results.flatMap((result) => (result.status === "fulfilled" ? result.value : []));
}

const refuse = (message: string) => new AppError("invalid_input", message);

/** Checks `raw` and its resolved addresses; returns the parsed URL or throws a 400 saying why. */
export async function checkUrl(raw: string, options: UrlGuardOptions = {}): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`"${raw}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refuse(`Only http and https addresses can be fetched, not ${url.protocol.replace(":", "")}.`);
  }
  if (url.username || url.password) {
    throw refuse("Addresses with a user name or password in them are refused.");
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (addressClass(host) !== null) addresses = [host];
  else if (host === "localhost" || host.endsWith(".localhost")) addresses = ["127.0.0.1"];
  else {
    addresses = await (options.resolve ?? systemResolve)(host).catch(() => []);
    if (addresses.length === 0) throw refuse(`Cannot resolve the host ${host}.`);
  }
  for (const address of addresses) {
    const kind = addressClass(address) ?? "public";
    if (kind === "public") continue;
    if ((kind === "loopback" || kind === "private") && options.allowPrivate) continue;
    throw refuse(
      `${host} points to ${
        /^[aeiou]/.test(kind) ? "an" : "a"
      } ${kind} address (${address}); Lectern does not fetch from there.`,
    );
  }
  return url;
}

/**
 * `fetch` through the guard: every redirect is followed by hand and checked again (at most 5). The caller
 * passes its own `signal` for a time limit.
 */
export async function guardedFetch(
  raw: string,
  init: RequestInit = {},
  options: UrlGuardOptions & { fetch?: typeof fetch } = {},
): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  let url = await checkUrl(raw, options);
  for (let hop = 0; hop <= 5; hop++) {
    const response = await doFetch(url, { ...init, redirect: "manual" });
    if (response.status < 300 || response.status >= 400 || !response.headers.get("location")) return response;
    await response.body?.cancel();
    url = await checkUrl(new URL(response.headers.get("location")!, url).href, options);
  }
  throw refuse(`Too many redirects from ${raw}.`);
}
