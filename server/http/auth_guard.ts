import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { users } from "../../db/schema.ts";
import { allows, type Permission } from "../../shared/roles.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { type Actor, SINGLE_USER_ACTOR } from "../auth/actor.ts";
import { verifySession } from "../auth/jwt.ts";
import type { AppEnv } from "./env.ts";

const unauthenticated = (message: string) =>
  new AppError("unauthenticated", message, { body: { error: message } });

function bearerToken(header: string | undefined): string | null {
  const token = header?.split(" ")[1]?.trim();
  return token && token !== "null" && token !== "undefined" ? token : null;
}

/**
 * Resolves the caller. An open single-user instance (no password, no accounts) lets every visitor act as its
 * owner; in multi-user mode a Bearer session token naming an active user is required (api-contract.md §2.3).
 */
export async function resolveActor(deps: Deps, authorization: string | undefined): Promise<Actor> {
  if (!deps.settings.multiUserMode) return SINGLE_USER_ACTOR;
  const token = bearerToken(authorization);
  if (!token) throw unauthenticated("No auth token found.");
  const claims = await verifySession(deps.keys.jwt, token);
  const userId = Number(claims?.sub);
  if (!claims || !Number.isInteger(userId)) throw unauthenticated("Invalid auth token.");
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) throw unauthenticated("Invalid auth for user.");
  if (user.suspended) throw unauthenticated("User is suspended from system");
  return { userId: user.id, role: user.role, multiUser: true };
}

export function authGuard(deps: Deps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set("actor", await resolveActor(deps, c.req.header("Authorization")));
    await next();
  });
}

/** Refuses (403) a caller whose role lacks the permission (shared/roles.ts). */
export function requirePermission(
  permission: Permission,
  errorBody?: (message: string) => Record<string, unknown>,
) {
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
