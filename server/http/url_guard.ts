import { AppError } from "../errors.ts";

/**
 * The one guard for every URL the server fetches for a user: http(s) only, and the
 * resolved addresses are checked. Loopback and private networks are refused unless `allowPrivate` (an admin's
 * own LLM or embedder base path, e.g. a local Ollama); link-local, cloud metadata, unspecified and multicast
 * addresses and every other special-purpose range are always refused. IPv6 forms that carry an IPv4
 * address (mapped, translated, compatible, NAT64) are judged by their IPv4 part.
 */
export interface UrlGuardOptions {
  allowPrivate?: boolean;
  /**
   * Host names an operator named (`LECTERN_CONNECTOR_PRIVATE_HOSTS`, a self-hosted GitLab or Confluence) that may
   * resolve to loopback or private addresses; every other host is judged as without it.
   */
  allowHosts?: readonly string[];
  /** Resolves a host name to its addresses; tests pass their own. */
  resolve?: (hostname: string) => Promise<string[]>;
}

/**
 * "reserved" covers the other special-purpose ranges of the IANA registries (documentation, benchmarking,
 * protocol assignments, 6to4, Teredo, discard, future use): nothing Lectern should fetch from.
 */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "unspecified"
  | "multicast"
  | "reserved";

/** The class of an IPv4 address by the IANA IPv4 special-purpose registry. */
function ipv4Class([a, b, c]: number[]): AddressClass {
  if (a === 127) return "loopback";
  if (a === 0) return "unspecified";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // shared address space (carrier NAT)
  if (a === 169 && b === 254) return "link-local";
  if (a >= 224 && a <= 239) return "multicast";
  if (a >= 240) return "reserved"; // future use and the broadcast address
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return "reserved"; // protocol assignments, TEST-NET-1
  if (a === 192 && b === 88 && c === 99) return "reserved"; // 6to4 relay anycast
  if (a === 198 && (b === 18 || b === 19)) return "reserved"; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return "reserved";
  return "public";
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseIpv4(text: string): number[] | null {
  const match = IPV4.exec(text);
  if (!match) return null;
  const parts = match.slice(1).map(Number);
  return parts.every((part) => part <= 255) ? parts : null;
}

/** The eight 16-bit groups of an IPv6 address (with "::" and a dotted IPv4 tail), or null. */
function parseIpv6(text: string): number[] | null {
  let address = text.replace(/%.*$/, "");
  const tail = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (tail) {
    const v4 = parseIpv4(tail[1]);
    if (!v4) return null;
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    address = `${address.slice(0, tail.index)}:${hex(v4[0], v4[1])}:${hex(v4[2], v4[3])}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return all.map((group) => parseInt(group, 16));
}

/** The IPv4 address held in two 16-bit groups. */
const embedded = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255];

/** The class of an IPv6 address by the IANA IPv6 special-purpose registry; IPv4 inside it is judged as IPv4. */
function ipv6Class(g: number[]): AddressClass {
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64.
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Class(embedded(g[6], g[7]));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Class(embedded(g[6], g[7]));
  if (zeros(0, 6)) return ipv4Class(embedded(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Class(embedded(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "reserved"; // local-use NAT64
  if (g[0] === 0x100 && zeros(1, 4)) return "reserved"; // discard-only
  if (g[0] === 0x2001 && g[1] < 0x200) return "reserved"; // protocol assignments, Teredo, ORCHID, benchmarks
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "reserved"; // documentation
  if (g[0] === 0x2002) return "reserved"; // 6to4: the IPv4 address inside is reached by a relay
  if ((g[0] & 0xfff0) === 0x3ff0 || g[0] === 0x5f00) return "reserved"; // documentation, SRv6
  if (g[0] === 0xfd00 && g[1] === 0xec2 && zeros(2, 7) && g[7] === 0x254) return "link-local"; // EC2 metadata
  if ((g[0] & 0xfe00) === 0xfc00) return "private"; // unique local
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0] & 0xffc0) === 0xfec0) return "private"; // site-local, deprecated
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  return "public";
}

/** The class of an IP address literal, or null when `address` is not one. */
export function addressClass(address: string): AddressClass | null {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = parseIpv4(bare);
  if (v4) return ipv4Class(v4);
  if (!bare.includes(":")) return null;
  const v6 = parseIpv6(bare);
  return v6 ? ipv6Class(v6) : null;
}

async function systemResolve(hostname: string): Promise<string[]> {
  const results = await Promise.allSettled([
    Deno.resolveDns(hostname, "A"),
    Deno.resolveDns(hostname, "AAAA"),
  ]);
  return results.flatMap((result) => (result.status === "fulfilled" ? result.value : []));
}

const refuse = (message: string) => new AppError("invalid_input", message);

/**
 * Why an address an admin saves as an endpoint (an LLM, embedder or vector database base path) cannot be used,
 * or null. Loopback and private addresses are the admin's own servers; an IP literal of any other
 * special-purpose class (link-local and cloud metadata, unspecified, multicast, reserved) is refused as the
 * guard refuses it for fetches. Names are not resolved here: the server may not be up yet.
 */
export function endpointProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const kind = addressClass(host);
  if (kind === null || kind === "public" || kind === "loopback" || kind === "private") return null;
  return `${host} is ${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind} address; Lectern does not connect there.`;
}

/** Checks `raw` and its resolved addresses; returns the parsed URL or throws a 400 saying why. */
export async function checkUrl(raw: string, options: UrlGuardOptions = {}): Promise<URL> {
  return (await checkedTarget(raw, options)).url;
}

/** The parsed URL and the addresses its host resolved to, every one of them checked. */
async function checkedTarget(
  raw: string,
  options: UrlGuardOptions,
): Promise<{ url: URL; addresses: string[] }> {
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
  // "localhost." and "example.com." are the same names as without the final dot.
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
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
    const named = options.allowHosts?.includes(host.toLowerCase()) ?? false;
    if ((kind === "loopback" || kind === "private") && (options.allowPrivate || named)) continue;
    throw refuse(
      `${host} points to ${
        /^[aeiou]/.test(kind) ? "an" : "a"
      } ${kind} address (${address}); Lectern does not fetch from there.`,
    );
  }
  return { url, addresses };
}

/**
 * A client that connects to `address` whatever the URL's host resolves to by then, so a name that changes
 * its answer after the check (DNS rebinding) is still fetched from the address that was checked. TLS still
 * checks the certificate against the URL's host name.
 */
function pinnedClient(url: URL, address: string): Deno.HttpClient {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  return Deno.createHttpClient({ proxy: { transport: "tcp", hostname: address, port } });
}

/** The response with a body that closes `client` once it is read to the end, fails or is cancelled. */
function closingWith(response: Response, client: Deno.HttpClient): Response {
  if (!response.body) {
    client.close();
    return response;
  }
  const reader = response.body.getReader();
  // Closed once: a body read to its end and then cancelled (as some clients do) must not close it again.
  let open = true;
  const release = () => {
    if (open) client.close();
    open = false;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          release();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {});
      release();
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie", "x-api-key", "api-key"];

function withoutCredentials(headers: HeadersInit | undefined): Headers {
  const kept = new Headers(headers);
  for (const name of CREDENTIAL_HEADERS) kept.delete(name);
  return kept;
}

/** The address each answer of `guardedFetch` came from, after its redirects. */
const finalUrls = new WeakMap<Response, string>();

/**
 * The address an answer of `guardedFetch` came from once its redirects were followed (what relative links in it
 * resolve against); `fallback` for any other answer. `Response.url` cannot say it: a test's fetch answers from
 * the fake's loopback address, and a redirect's hops are followed by hand.
 */
export function finalUrlOf(response: Response, fallback: string): string {
  return finalUrls.get(response) ?? fallback;
}

/**
 * `fetch` through the guard: every redirect is followed by hand and checked again (at most 5), and every hop
 * connects to an address that was checked; a redirect to another origin drops the credential headers. The
 * caller passes its own `signal` for a time limit. Tests may
 * pass their own `fetch`, which is called without the pinned client.
 */
export async function guardedFetch(
  raw: string,
  init: RequestInit = {},
  options: UrlGuardOptions & { fetch?: typeof fetch } = {},
): Promise<Response> {
  let target = await checkedTarget(raw, options);
  for (let hop = 0; hop <= 5; hop++) {
    let response: Response;
    if (options.fetch) response = await options.fetch(target.url, { ...init, redirect: "manual" });
    else {
      const client = pinnedClient(target.url, target.addresses[0]);
      try {
        response = closingWith(await fetch(target.url, { ...init, redirect: "manual", client }), client);
      } catch (error) {
        client.close();
        throw error;
      }
    }
    if (response.status < 300 || response.status >= 400 || !response.headers.get("location")) {
      finalUrls.set(response, target.url.href);
      return response;
    }
    await response.body?.cancel();
    const next = await checkedTarget(new URL(response.headers.get("location")!, target.url).href, options);
    // As fetch does: credentials meant for one origin are not carried to another.
    if (next.url.origin !== target.url.origin) init = { ...init, headers: withoutCredentials(init.headers) };
    target = next;
  }
  throw refuse(`Too many redirects from ${raw}.`);
}
