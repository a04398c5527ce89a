import type { Actor } from "../auth/actor.ts";

/** Hono's environment for every route: the request's actor, set by the auth guard. */
export interface AppEnv {
  Variables: { actor: Actor };
}
