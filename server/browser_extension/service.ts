import { desc, eq } from "drizzle-orm";
import { browserExtensionKeys, users } from "../../db/schema.ts";
import {
  BROWSER_EXTENSION_KEY_PREFIX,
  type BrowserExtensionKeyView,
} from "../../shared/api/browser_extension.ts";
import type { Actor } from "../auth/actor.ts";
import { SINGLE_USER_ACTOR } from "../auth/actor.ts";
import { hashToken } from "../auth/passwords.ts";
import { maskApiKey, newApiKey } from "../api_keys/service.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail } from "../errors.ts";
import { findUserById } from "../users/repo.ts";

type Db = Pick<Deps, "db">;
type KeyRow = typeof browserExtensionKeys.$inferSelect;
type Owner = { id: number; username: string | null; role: string } | null;

/** A new key: the reference's `brx-` prefix before a developer API key's 140 random bits. */
export function newBrowserExtensionKey(): string {
  return `${BROWSER_EXTENSION_KEY_PREFIX}${newApiKey()}`;
}

function present(row: KeyRow, owner: Owner): BrowserExtensionKeyView {
  return {
    id: row.id,
    key: row.masked,
    user_id: row.userId,
    user: owner?.id ? owner : null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
  };
}

/** Every key, newest first, with who made it (never the key itself). */
export async function listBrowserExtensionKeys(deps: Db): Promise<BrowserExtensionKeyView[]> {
  const rows = await deps.db.select({
    key: browserExtensionKeys,
    user: { id: users.id, username: users.username, role: users.role },
  }).from(browserExtensionKeys).leftJoin(users, eq(users.id, browserExtensionKeys.userId))
    .orderBy(desc(browserExtensionKeys.id));
  return rows.map(({ key, user }) => present(key, user));
}

/** Makes a key owned by the actor (none on a single-user instance); the whole key is returned this once. */
export async function createBrowserExtensionKey(deps: Db, actor: Actor): Promise<string> {
  const key = newBrowserExtensionKey();
  await deps.db.insert(browserExtensionKeys).values({
    secretHash: await hashToken(key),
    masked: `${BROWSER_EXTENSION_KEY_PREFIX}${maskApiKey(key.slice(BROWSER_EXTENSION_KEY_PREFIX.length))}`,
    userId: actor.multiUser ? actor.userId : null,
  });
  return key;
}

/** Revokes a key: it stops working with the next request. */
export async function revokeBrowserExtensionKey(deps: Db, id: number): Promise<void> {
  const deleted = await deps.db.delete(browserExtensionKeys).where(eq(browserExtensionKeys.id, id))
    .returning({ id: browserExtensionKeys.id });
  if (deleted.length === 0) {
    const message = "That browser extension key does not exist.";
    fail("not_found", message, { success: false, error: message });
  }
}

/** The reference's refusal of a missing, unknown or revoked key (403). */
export const NO_VALID_KEY = "No valid API key found.";

const refuse = (code: "forbidden" | "unauthenticated", message: string) =>
  new AppError(code, message, { body: { error: message } });

/** How often a key's "last used" time is written: at most once a minute per key. */
const LAST_USED_EVERY_MS = 60_000;

/** A key the extension sent, resolved: the key's id and the caller its calls act as. */
export interface ExtensionCaller {
  keyId: number;
  actor: Actor;
}

/**
 * Resolves the key of an extension call (the reference's `validBrowserExtensionApiKey`): unknown keys are a 403;
 * in multi-user mode the key acts as the account that made it, so a key without an owner (made before accounts
 * were enabled) or whose owner is gone is refused (403), and a suspended owner gets 401.
 */
export async function resolveExtensionKey(
  deps: Deps,
  key: string | null,
  now = Date.now(),
): Promise<ExtensionCaller> {
  if (!key || !key.startsWith(BROWSER_EXTENSION_KEY_PREFIX) || key.length > 200) {
    throw refuse("forbidden", NO_VALID_KEY);
  }
  const [row] = await deps.db.select().from(browserExtensionKeys).where(
    eq(browserExtensionKeys.secretHash, await hashToken(key)),
  );
  if (!row) throw refuse("forbidden", NO_VALID_KEY);
  let actor: Actor = SINGLE_USER_ACTOR;
  if (deps.settings.multiUserMode) {
    if (row.userId === null) throw refuse("forbidden", NO_VALID_KEY);
    const user = await findUserById(deps, row.userId);
    if (!user) throw refuse("forbidden", "User not found.");
    if (user.suspended) throw refuse("unauthenticated", "User is suspended from system.");
    actor = { userId: user.id, role: user.role, multiUser: true };
  }
  if (now - (row.lastUsedAt?.getTime() ?? 0) >= LAST_USED_EVERY_MS) {
    await deps.db.update(browserExtensionKeys).set({ lastUsedAt: new Date(now) })
      .where(eq(browserExtensionKeys.id, row.id));
  }
  return { keyId: row.id, actor };
}
