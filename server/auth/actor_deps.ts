import type { Deps } from "../deps.ts";
import type { ActorDeps } from "../http/auth_guard.ts";
import { findUserById } from "../users/repo.ts";

/** The auth guard's dependencies, with the users table as the account lookup. */
export function actorDeps(deps: Deps): ActorDeps {
  return { settings: deps.settings, keys: deps.keys, findUser: (id) => findUserById(deps, id) };
}
