import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env.ts";

/** Methods that never change anything; every other method is refused when a browser sends it cross-site. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface OriginPolicy {
  /** Names (without port) this instance answers to besides IP addresses and localhost (ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** Behind a reverse proxy the proxy checks the name and X-Forwarded-Host is the name the browser used. */
  trustProxy: boolean;
  /** Other origins the operator allows to call the API from their pages (CORS_ORIGINS). */
  corsOrigins?: readonly string[];
  /**
   * Calls meant for other web sites that check the Origin themselves (the embed widgets' public calls, against
   * their embed's allowed domains; they carry no session to abuse). The Host check still applies. `origin` is
   * the request's Origin header, if any.
   */
  checksOwnOrigin?: (method: string, path: string, origin?: string) => boolean;
}

/** The name of a Host header or an origin's host, without its port, lower case; brackets kept for IPv6. */
export function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  return value.replace(/:\d*$/, "");
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Whether a Host names this instance. An IP address cannot be rebound, and localhost is this machine; any other
 * name must be one the operator listed, or this machine's own name, since a page on a name that an attacker's
 * DNS points at this machine (DNS rebinding) would otherwise be same-origin with it.
 */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = hostName(host);
  if (name === "" || IPV4.test(name) || name.startsWith("[")) return true;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  return allowed.includes(name);
}

/** This machine's names as a LAN knows them: its host name, and that name under mDNS (.local). */
export function machineNames(): string[] {
  try {
    const name = Deno.hostname().toLowerCase();
    return name ? [name, `${name}.local`] : [];
  } catch {
    return [];
  }
}

const refuse = (message: string) =>
  new Response(JSON.stringify({ success: false, error: message }), {
    status: 403,
    headers: { "Content-Type": "application/json" },
  });

/**
 * Keeps other web sites from acting through a visitor's browser. An open instance on loopback is reachable by
 * every page its owner visits, and request bodies are read as JSON whatever their type, so a form or fetch from
 * any page could change settings. Refused: a state-changing request whose Origin is another origin (or
 * "null") unless the operator allows that origin (CORS_ORIGINS), or that the browser marks cross-site or
 * same-site without an Origin; and any request whose Host is a name this instance does not answer to. A request without Origin or Sec-Fetch-Site (curl, scripts,
 * other servers) is not a browser acting for a page, and passes.
 */
export function originGuard(policy: OriginPolicy) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const forwarded = policy.trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
    const host = forwarded || c.req.header("host") || new URL(c.req.url).host;
    if (!policy.trustProxy && !hostAllowed(host, policy.allowedHosts)) {
      return refuse(
        `This instance does not answer to the name "${
          hostName(host)
        }". Open it by its address or localhost, ` +
          `or add the name to ALLOWED_HOSTS.`,
      );
    }
    // A WebSocket opens with a GET, but what runs over it acts for the user (the agent's socket).
    const socket = c.req.header("upgrade")?.toLowerCase() === "websocket";
    if (
      (!SAFE_METHODS.has(c.req.method) || socket) &&
      !policy.checksOwnOrigin?.(c.req.method, c.req.path, c.req.header("origin"))
    ) {
      const origin = c.req.header("origin");
      const site = c.req.header("sec-fetch-site");
      let trusted: boolean;
      if (origin !== undefined && policy.corsOrigins?.includes(origin)) {
        // An origin the operator allows is let through as if it were this instance itself.
        trusted = true;
      } else if (origin !== undefined) {
        try {
          trusted = origin !== "null" && new URL(origin).host.toLowerCase() === host.toLowerCase();
        } catch {
          trusted = false;
        }
      } else {
        trusted = site === undefined || site === "same-origin" || site === "none";
      }
      if (!trusted) {
        return refuse(
          "Requests from other web sites are refused: open this instance itself, or call the API without a " +
            "browser.",
        );
      }
    }
    await next();
  });
}
