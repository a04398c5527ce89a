import type { users } from "../../db/schema.ts";
import type { User } from "../../shared/api/auth.ts";

export type UserRow = typeof users.$inferSelect;

/** A user without the password hash or the token version (docs/api-compat.md#login-and-sessions). */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    pfpFilename: row.pfpFilename,
    role: row.role,
    suspended: row.suspended,
    seen_recovery_codes: row.seenRecoveryCodes,
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
    dailyMessageLimit: row.dailyMessageLimit,
    bio: row.bio ?? "",
    preferredLanguage: row.preferredLanguage,
  };
}
