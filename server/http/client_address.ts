import type { Context } from "hono";

/**
 * The client's address for rate limits: the socket's peer (Deno.serve passes it as the app's env), or the
 * first X-Forwarded-For hop when the operator says a trusted proxy is in front (TRUST_PROXY).
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  const remote = (c.env as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr;
  return remote?.hostname ?? "unknown";
}
