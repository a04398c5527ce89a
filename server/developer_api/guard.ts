import { createMiddleware } from "hono/factory";
import type { ApiKeyGrant, ApiKeyLookup } from "../api_keys/service.ts";
import { SlidingWindow } from "../auth/rate_limit.ts";
import { AppError } from "../errors.ts";
import { bearerToken } from "../http/auth_guard.ts";
import type { AppEnv } from "../http/env.ts";
import type { SettingsService } from "../settings/service.ts";
import { forbidden } from "./access.ts";

/** Each key's own limit, counted over a sliding minute; a key without one is never limited. */
export class KeyRateLimits {
  readonly #windows = new Map<number, SlidingWindow>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until the key may call again (0: now), counting this call when it is let through. */
  take(grant: ApiKeyGrant): number {
    if (grant.rateLimit === null) {
      this.#windows.delete(grant.id);
      return 0;
    }
    let window = this.#windows.get(grant.id);
    if (!window || window.limit !== grant.rateLimit) {
      window = new SlidingWindow(grant.rateLimit, 60_000, this.now);
      this.#windows.set(grant.id, window);
    }
    const wait = window.retryAfter("calls");
    if (wait === 0) window.hit("calls");
    return wait;
  }
}

export interface ApiKeyGuardDeps {
  lookup: Pick<ApiKeyLookup, "find">;
  limits: KeyRateLimits;
  settings: Pick<SettingsService, "multiUserMode">;
}

/**
 * The developer API's guard: `Authorization: Bearer <api key>`, else 403 `{"error":"No valid api key found."}`
 * as the reference (a session token of the UI is not a key). A key over its rate limit gets 429 with
 * `Retry-After`. The call then acts as the instance's administrator, within the key's scope.
 */
export function apiKeyGuard(deps: ApiKeyGuardDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = bearerToken(c.req.header("Authorization"));
    const grant = key ? await deps.lookup.find(key) : null;
    if (!grant) throw forbidden("No valid api key found.");
    const wait = deps.limits.take(grant);
    if (wait > 0) {
      const message =
        `Too many requests with this API key: its limit is ${grant.rateLimit} a minute. Try again in ${wait} seconds.`;
      c.header("Retry-After", String(wait));
      throw new AppError("rate_limited", message, { body: { error: message } });
    }
    c.set("apiKey", grant);
    c.set("actor", { userId: null, role: "admin", multiUser: deps.settings.multiUserMode });
    await next();
  });
}
