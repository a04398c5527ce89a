import { createMiddleware } from "hono/factory";
import { allows, type Permission, type Role } from "../../shared/roles.ts";
import { AppError } from "../errors.ts";
import { type Actor, SINGLE_USER_ACTOR } from "../auth/actor.ts";
import { verifySession } from "../auth/jwt.ts";
import type { InstanceKeys } from "../auth/keys.ts";
import type { SettingsService } from "../settings/service.ts";
import type { AppEnv } from "./env.ts";

/** The fields of an account that decide whether its session token still holds. */
export interface SessionUser {
  id: number;
  role: Role;
  tokenVersion: number;
  /** Non-zero (or true) when an admin suspended the account. */
  suspended: number | boolean;
}

/** What resolving the caller reads: the auth settings, the signing key, and the account a token names. */
export interface ActorDeps {
  settings: Pick<SettingsService, "requiresAuth" | "multiUserMode" | "instanceTokenVersion">;
  keys: Pick<InstanceKeys, "jwt">;
  /** The account with this id, or null (server/auth/actor_deps.ts looks it up in the users table). */
  findUser(id: number): Promise<SessionUser | null>;
}

const unauthenticated = (message: string) =>
  new AppError("unauthenticated", message, { body: { error: message } });

export function bearerToken(header: string | undefined): string | null {
  const token = header?.split(" ")[1]?.trim();
  return token && token !== "null" && token !== "undefined" ? token : null;
}

/**
 * Resolves the caller (docs/api-compat.md#authentication-modes-and-the-auth-guard). An open single-user
 * instance lets every visitor act as its owner; a password-protected one needs a token signed for the current
 * instance password; multi-user mode needs a token naming an active user whose token version has not moved on
 * (password, role or suspension changed).
 */
export async function resolveActor(deps: ActorDeps, authorization: string | undefined): Promise<Actor> {
  if (!deps.settings.requiresAuth) return SINGLE_USER_ACTOR;
  const token = bearerToken(authorization);
  if (!token) throw unauthenticated("No auth token found.");
  const claims = await verifySession(deps.keys.jwt, token);
  if (!deps.settings.multiUserMode) {
    if (!claims || claims.sub !== "instance") throw unauthenticated("Token expired or failed validation.");
    if (claims.ver !== deps.settings.instanceTokenVersion) throw unauthenticated("Invalid auth credentials.");
    return SINGLE_USER_ACTOR;
  }
  const userId = Number(claims?.sub);
  if (!claims || !Number.isInteger(userId)) throw unauthenticated("Invalid auth token.");
  const user = await deps.findUser(userId);
  if (!user || user.tokenVersion !== claims.ver) throw unauthenticated("Invalid auth for user.");
  if (user.suspended) throw unauthenticated("User is suspended from system");
  return { userId: user.id, role: user.role, multiUser: true };
}

/** The caller if the request carries a valid session (or none is needed), else null; never throws. */
export async function optionalActor(
  deps: ActorDeps,
  authorization: string | undefined,
): Promise<Actor | null> {
  try {
    return await resolveActor(deps, authorization);
  } catch {
    return null;
  }
}

export function authGuard(deps: ActorDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set("actor", await resolveActor(deps, c.req.header("Authorization")));
    await next();
  });
}

export type ErrorBody = (message: string) => Record<string, unknown>;

/** Refuses (403) a caller whose role lacks the permission (shared/roles.ts). */
export function requirePermission(permission: Permission, errorBody?: ErrorBody) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!allows(c.var.actor.role, permission)) {
      const message = "You do not have permission to do that.";
      throw new AppError("forbidden", message, {
        body: errorBody?.(message) ?? { success: false, error: message },
      });
    }
    await next();
  });
}

/** Refuses (403) calls that only make sense with accounts, on a single-user instance. */
export function requireMultiUser(
  deps: { settings: Pick<SettingsService, "multiUserMode"> },
  errorBody?: ErrorBody,
) {
  return createMiddleware<AppEnv>(async (_c, next) => {
    if (!deps.settings.multiUserMode) {
      const message = "Multi-user mode is not enabled.";
      throw new AppError("forbidden", message, {
        body: errorBody?.(message) ?? { success: false, error: message },
      });
    }
    await next();
  });
}
