import { and, asc, count, eq, ne } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { UserRow } from "../auth/present.ts";

export async function findUserById(deps: Deps, id: number): Promise<UserRow | null> {
  const [row] = await deps.db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function findUserByUsername(deps: Deps, username: string): Promise<UserRow | null> {
  const [row] = await deps.db.select().from(users).where(eq(users.username, username));
  return row ?? null;
}

/** Active admins other than `exceptId`: the last one may not be demoted, suspended or deleted. */
export async function otherActiveAdmins(deps: Deps, exceptId: number): Promise<number> {
  const [row] = await deps.db.select({ value: count() }).from(users).where(
    and(eq(users.role, "admin"), eq(users.suspended, 0), ne(users.id, exceptId)),
  );
  return row?.value ?? 0;
}

export async function usernameTaken(deps: Deps, username: string, exceptId?: number): Promise<boolean> {
  const rows = await deps.db.select({ id: users.id }).from(users).where(
    exceptId === undefined
      ? eq(users.username, username)
      : and(eq(users.username, username), ne(users.id, exceptId)),
  );
  return rows.length > 0;
}

export function listUsers(deps: Deps): Promise<UserRow[]> {
  return deps.db.select().from(users).orderBy(asc(users.id));
}
