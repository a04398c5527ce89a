import { type Role, ROLES } from "../../shared/roles.ts";
import type { Guard } from "../../shared/routes.ts";
import { fetchGuardSetup } from "../features/settings/setup.ts";
import { api, ApiError } from "./api.ts";
import { localStore, STORAGE_KEYS } from "./storage.ts";

/** The stored session is trusted for 5 minutes after its last check. */
export const AUTH_RECHECK_MS = 5 * 60 * 1000;

/** The user kept in storage: what the guards and the account menu read; other profile fields pass through. */
export type StoredUser = { id: number; username: string | null; role: Role; [field: string]: unknown };

/**
 * A stored (or refreshed) user when `value` has the fields the guards read, else null. Checked by hand, not with
 * the shared zod schema: the page guard runs before a page hydrates, and zod is not in a page's first load.
 */
export function asStoredUser(value: unknown): StoredUser | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const user = value as Record<string, unknown>;
  if (typeof user.id !== "number") return null;
  if (user.username !== null && typeof user.username !== "string") return null;
  if (!(ROLES as readonly unknown[]).includes(user.role)) return null;
  return user as StoredUser;
}

/**
 * The outcome of the auth check (docs/api-compat.md#client-behaviour); the spinner covers the fourth state,
 * unknown.
 */
export type AuthDecision =
  | { state: "authenticated"; multiUser: boolean; user: StoredUser | null }
  | { state: "unauthenticated" }
  | { state: "needsOnboarding" };

export interface StoredSession {
  token: string | null;
  user: StoredUser | null;
  /** When the session was last stored or checked (ms since the epoch). */
  checkedAt: number | null;
}

export function readSession(store: Storage | null = localStore()): StoredSession {
  const token = store?.getItem(STORAGE_KEYS.token) || null;
  const checkedAt = Number(store?.getItem(STORAGE_KEYS.authTimestamp) ?? Number.NaN);
  let user: StoredUser | null = null;
  try {
    user = asStoredUser(JSON.parse(store?.getItem(STORAGE_KEYS.user) ?? "null"));
  } catch {
    // Not JSON: an invalid stored user, treated as none.
  }
  return { token, user, checkedAt: Number.isFinite(checkedAt) ? checkedAt : null };
}

/** Stores a session: the token, the user in multi-user mode, and the time of this auth check. */
export function storeSession(
  session: { token: string; user?: StoredUser | null },
  store: Storage | null = localStore(),
  now = Date.now(),
) {
  if (!store) return;
  store.setItem(STORAGE_KEYS.token, session.token);
  if (session.user) store.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
  else store.removeItem(STORAGE_KEYS.user);
  store.setItem(STORAGE_KEYS.authTimestamp, String(now));
}

/** Changes fields of the stored user (after the account form saved them). */
export function updateStoredUser(changes: Partial<StoredUser>, store: Storage | null = localStore()) {
  const { user } = readSession(store);
  if (store && user) store.setItem(STORAGE_KEYS.user, JSON.stringify({ ...user, ...changes }));
}

/** Forgets the stored user, token and auth timestamp. */
export function clearSession(store: Storage | null = localStore()) {
  store?.removeItem(STORAGE_KEYS.user);
  store?.removeItem(STORAGE_KEYS.token);
  store?.removeItem(STORAGE_KEYS.authTimestamp);
}

/**
 * Whether a page of this guard level lets this authenticated visitor in
 * (docs/api-compat.md#page-routes-and-page-guards).
 */
export function guardAllows(guard: Guard, multiUser: boolean, user: StoredUser | null): boolean {
  if (guard === "public" || guard === "any" || !multiUser) return true;
  if (guard === "admin") return user?.role === "admin";
  return !!user && user.role !== "default";
}

/** What the auth check needs from the outside world; tests pass their own. */
export interface AuthEnvironment {
  setup(): Promise<{
    MultiUserMode: boolean;
    RequiresAuth: boolean;
    LLMProvider: string | null;
    VectorDB: string | null;
  }>;
  /** False when the server refuses the stored token; throws when it cannot answer. */
  checkToken(): Promise<boolean>;
  /** The current user, or null when the session is no longer valid. */
  refreshUser(): Promise<StoredUser | null>;
  store: Storage | null;
  now(): number;
}

const refused = (error: unknown) =>
  error instanceof ApiError && (error.status === 401 || error.status === 403);

export const browserEnvironment = (): AuthEnvironment => ({
  setup: () => fetchGuardSetup(),
  checkToken: () =>
    api("/system/check-token").then(() => true, (error) => {
      if (refused(error)) return false;
      throw error;
    }),
  refreshUser: () =>
    api("/system/refresh-user").then(
      (answer) => {
        const { success, user } = (answer ?? {}) as { success?: unknown; user?: unknown };
        const stored = asStoredUser(user);
        if (typeof success !== "boolean" || (user !== null && !stored)) {
          throw new Error("The server's answer is not a user.");
        }
        return success ? stored : null;
      },
      (error) => {
        if (refused(error)) return null;
        throw error;
      },
    ),
  store: localStore(),
  now: () => Date.now(),
});

/**
 * Decides whether the visitor is signed in. An open single-user instance lets everyone in,
 * or sends them to onboarding while no language model or vector database is set. Otherwise the stored session
 * is trusted for 5 minutes after its last check, then checked again (with the user refreshed in multi-user mode);
 * a missing or refused session is cleared. Throws when the server cannot be asked.
 */
export async function checkAuth(env: AuthEnvironment = browserEnvironment()): Promise<AuthDecision> {
  const setup = await env.setup();
  const multiUser = setup.MultiUserMode;
  if (!multiUser && !setup.RequiresAuth) {
    if (!setup.LLMProvider || !setup.VectorDB) return { state: "needsOnboarding" };
    return { state: "authenticated", multiUser: false, user: null };
  }
  const session = readSession(env.store);
  const forget = (): AuthDecision => {
    clearSession(env.store);
    return { state: "unauthenticated" };
  };
  if (!session.token || (multiUser && !session.user)) return forget();
  const user = multiUser ? session.user : null;
  const age = session.checkedAt === null ? Number.POSITIVE_INFINITY : env.now() - session.checkedAt;
  if (age >= 0 && age <= AUTH_RECHECK_MS) return { state: "authenticated", multiUser, user };

  if (!(await env.checkToken())) return forget();
  const current = multiUser ? await env.refreshUser() : null;
  if (multiUser && !current) return forget();
  storeSession({ token: session.token, user: current }, env.store, env.now());
  return { state: "authenticated", multiUser, user: current };
}

let decision: Promise<AuthDecision> | null = null;

/** The auth check of this page, made once: the page guard and the account menu share it. */
export function pageAuth(): Promise<AuthDecision> {
  decision ??= checkAuth();
  return decision;
}

/** The reset token of the forgot-password flow, kept between the recovery and the reset form. */
export const resetToken = {
  read: (store: Storage | null = localStore()) => store?.getItem(STORAGE_KEYS.resetToken) || null,
  store: (token: string, store: Storage | null = localStore()) =>
    store?.setItem(STORAGE_KEYS.resetToken, token),
  clear: (store: Storage | null = localStore()) => store?.removeItem(STORAGE_KEYS.resetToken),
};
