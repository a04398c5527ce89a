import type { Actor } from "../auth/actor.ts";
import type { ApiKeyGrant } from "../api_keys/grant.ts";

/**
 * Hono's environment for every route: the request's actor, set by the auth guard; on the developer API also
 * the API key the request carries.
 */
export interface AppEnv {
  Variables: { actor: Actor; apiKey?: ApiKeyGrant };
}
