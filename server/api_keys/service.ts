import { desc, eq, inArray } from "drizzle-orm";
import { apiKeys, users, workspaces } from "../../db/schema.ts";
import type { ApiKeyPermission, ApiKeyView, GenerateApiKeyInput } from "../../shared/api/api_keys.ts";
import type { ApiKeyGrant } from "./grant.ts";

export type { ApiKeyGrant };
import type { Actor } from "../auth/actor.ts";
import { hashToken } from "../auth/passwords.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";

type Db = Pick<Deps, "db">;

/** Crockford's base32: no I, L, O or U, so a key read aloud or copied by hand is not misread. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A new key in the reference's shape (four groups of seven characters, `3SWC66H-8AM4MY3-KQREFCH-9YYRV3A`), each
 * character 5 random bits: 140 bits in all.
 */
export function newApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(28));
  const characters = Array.from(bytes, (byte) => ALPHABET[byte & 31]);
  return [0, 7, 14, 21].map((start) => characters.slice(start, start + 7).join("")).join("-");
}

/** What the list shows of a key: its first and last four characters. */
export function maskApiKey(key: string): string {
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

type ApiKeyRow = typeof apiKeys.$inferSelect;

function grantOf(row: ApiKeyRow): ApiKeyGrant {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    workspaceIds: row.workspaceIds,
    permissions: row.permissions as ApiKeyPermission[],
    rateLimit: row.rateLimit,
  };
}

/** The keys, newest first, as the API keys screen lists them (never the key itself). */
export async function listApiKeys(deps: Db): Promise<ApiKeyView[]> {
  const rows = await deps.db.select({
    key: apiKeys,
    user: { id: users.id, username: users.username, role: users.role },
  })
    .from(apiKeys).leftJoin(users, eq(users.id, apiKeys.createdBy)).orderBy(desc(apiKeys.id));
  const ids = [...new Set(rows.flatMap(({ key }) => key.workspaceIds))];
  const named = ids.length === 0 ? [] : await deps.db.select({
    id: workspaces.id,
    slug: workspaces.slug,
    name: workspaces.name,
  }).from(workspaces).where(inArray(workspaces.id, ids));
  const byId = new Map(named.map((workspace) => [workspace.id, workspace]));
  return rows.map(({ key, user }) => present(key, user, byId));
}

function present(
  key: ApiKeyRow,
  user: { id: number; username: string | null; role: string } | null,
  byId: Map<number, { id: number; slug: string; name: string }>,
  secret = key.masked,
): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    secret,
    scope: key.scope,
    // A workspace deleted since the key was made is no longer listed (nor reachable).
    workspaces: key.workspaceIds.flatMap((id) => byId.get(id) ?? []),
    permissions: key.permissions as ApiKeyPermission[],
    rateLimit: key.rateLimit,
    createdBy: user?.id ? user : null,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    lastUpdatedAt: key.lastUpdatedAt.toISOString(),
  };
}

/** Makes a key; the answer holds the whole key, the only time it is told. Only its hash is stored. */
export async function generateApiKey(
  deps: Db,
  actor: Actor,
  input: GenerateApiKeyInput,
): Promise<ApiKeyView> {
  const limited = input.scope === "workspaces";
  const named = limited
    ? await deps.db.select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name }).from(
      workspaces,
    )
      .where(inArray(workspaces.id, input.workspaceIds))
    : [];
  const missing = input.workspaceIds.filter((id) => !named.some((workspace) => workspace.id === id));
  if (limited && missing.length > 0) {
    const message = `workspaceIds names ${missing[0]}, which is not a workspace id.`;
    fail("invalid_input", message, { apiKey: null, error: message });
  }
  const key = newApiKey();
  const [row] = await deps.db.insert(apiKeys).values({
    name: input.name,
    secretHash: await hashToken(key),
    masked: maskApiKey(key),
    scope: input.scope,
    workspaceIds: limited ? [...new Set(input.workspaceIds)] : [],
    permissions: limited ? [...new Set(input.permissions)] : [],
    rateLimit: input.rateLimit,
    createdBy: actor.userId,
  }).returning();
  const [user] = actor.userId === null ? [] : await deps.db.select({
    id: users.id,
    username: users.username,
    role: users.role,
  }).from(users).where(eq(users.id, actor.userId));
  return present(row, user ?? null, new Map(named.map((workspace) => [workspace.id, workspace])), key);
}

/** Deletes a key: it stops working with the next request. */
export async function deleteApiKey(deps: Db, id: number): Promise<void> {
  const deleted = await deps.db.delete(apiKeys).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id });
  if (deleted.length === 0) fail("not_found", "That API key does not exist.");
}

/** How often a key's "last used" time is written: at most once a minute per key, not on every request. */
const LAST_USED_EVERY_MS = 60_000;

/** Finds the key a request carries (by its hash) and notes when it was last used. */
export class ApiKeyLookup {
  readonly #written = new Map<number, number>();
  constructor(private readonly deps: Db, private readonly now: () => number = Date.now) {}

  async find(key: string): Promise<ApiKeyGrant | null> {
    if (key.length > 200) return null;
    const [row] = await this.deps.db.select().from(apiKeys).where(
      eq(apiKeys.secretHash, await hashToken(key)),
    );
    if (!row) return null;
    const now = this.now();
    if (now - (this.#written.get(row.id) ?? 0) >= LAST_USED_EVERY_MS) {
      this.#written.set(row.id, now);
      await this.deps.db.update(apiKeys).set({ lastUsedAt: new Date(now) }).where(eq(apiKeys.id, row.id));
    }
    return grantOf(row);
  }
}
