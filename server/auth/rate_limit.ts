import type { Client, InStatement } from "@libsql/client";
import { lte } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { rateLimitHits } from "../../db/schema.ts";

/**
 * Counts events per key in a sliding window; a key that reached `limit` is blocked until its oldest event
 * leaves the window. Memory stays bounded: old events are pruned on access and idle keys are dropped.
 */
export class SlidingWindow {
  private readonly events = new Map<string, number[]>();
  constructor(readonly limit: number, readonly windowMs: number, private readonly now = () => Date.now()) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const kept = (this.events.get(key) ?? []).filter((time) => time > cutoff);
    if (kept.length === 0) this.events.delete(key);
    else this.events.set(key, kept);
    return kept;
  }

  /** Seconds until the key may act again, or 0 when it may act now. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[0] + this.windowMs - this.now()) / 1000));
  }

  hit(key: string) {
    const recent = this.recent(key);
    recent.push(this.now());
    this.events.set(key, recent);
    if (this.events.size > 50_000) this.prune();
  }

  reset(key: string) {
    this.events.delete(key);
  }

  private prune() {
    for (const key of [...this.events.keys()]) this.recent(key);
  }
}

/**
 * The limits on guessing: login and account recovery, per client address and per address and username. A
 * username is never limited on its own, or anyone could lock its owner out from wherever they sign in.
 */
export const AUTH_LIMITS = {
  loginPerAddress: { limit: 30, windowMs: 5 * 60_000 },
  loginFailuresPerAddressAndUsername: { limit: 10, windowMs: 15 * 60_000 },
  recoveryPerAddress: { limit: 10, windowMs: 15 * 60_000 },
  recoveryPerAddressAndUsername: { limit: 5, windowMs: 15 * 60_000 },
} as const;

export type LimitName = keyof typeof AUTH_LIMITS;
export type LimitKey = readonly [LimitName, string];

/** The longest window: older attempts count for nothing and are pruned. */
export const LONGEST_LIMIT_WINDOW_MS = Math.max(...Object.values(AUTH_LIMITS).map((limit) => limit.windowMs));

/**
 * Where attempts are counted. `take` is one atomic step: the longest wait of `checks` (seconds), or 0, and then
 * each of `hits` is counted, so attempts sent at once cannot all pass the check before any is counted.
 */
export interface AuthLimits {
  readonly kind: "memory" | "database";
  take(checks: readonly LimitKey[], hits: readonly LimitKey[]): Promise<number>;
  reset(name: LimitName, key: string): Promise<void>;
}

/** The key of one address guessing at one username. */
export const addressAndUsername = (address: string, username: string) => `${address}\n${username}`;

/** Counts in this process's memory: right for one replica, or replicas behind a load balancer with sticky clients. */
export class MemoryAuthLimits implements AuthLimits {
  readonly kind = "memory";
  readonly #windows: Record<LimitName, SlidingWindow>;

  constructor(now: () => number = () => Date.now()) {
    this.#windows = Object.fromEntries(
      Object.entries(AUTH_LIMITS).map(([name, { limit, windowMs }]) => [
        name,
        new SlidingWindow(limit, windowMs, now),
      ]),
    ) as Record<LimitName, SlidingWindow>;
  }

  take(checks: readonly LimitKey[], hits: readonly LimitKey[]): Promise<number> {
    const wait = Math.max(0, ...checks.map(([name, key]) => this.#windows[name].retryAfter(key)));
    if (wait === 0) { for (const [name, key] of hits) this.#windows[name].hit(key); }
    return Promise.resolve(wait);
  }

  reset(name: LimitName, key: string): Promise<void> {
    this.#windows[name].reset(key);
    return Promise.resolve();
  }
}

/**
 * Counts in the database (`rate_limit_hits`), so that every replica sharing it sees the same attempts: one
 * row per attempt. The check and the count are one statement (an INSERT whose SELECT holds the check), sent
 * in one batch with the reads that give the wait: no transaction stays open between calls, so concurrent
 * attempts in one process never wait on each other's lock. The maintenance job prunes old rows.
 */
export class DatabaseAuthLimits implements AuthLimits {
  readonly kind = "database";
  constructor(private readonly client: Client, private readonly now: () => number = () => Date.now()) {}

  async take(checks: readonly LimitKey[], hits: readonly LimitKey[]): Promise<number> {
    const now = this.now();
    const since = ([name]: LimitKey) => now - AUTH_LIMITS[name].windowMs;
    const statements: InStatement[] = [];
    if (hits.length > 0) {
      const allowed = checks.map(() =>
        "(SELECT count(*) FROM rate_limit_hits WHERE bucket = ? AND key = ? AND at > ?) < ?"
      ).join(" AND ") || "1";
      statements.push({
        sql: `INSERT INTO rate_limit_hits (bucket, key, at) SELECT bucket, key, ? FROM (${
          hits.map(() => "SELECT ? AS bucket, ? AS key").join(" UNION ALL ")
        }) WHERE ${allowed}`,
        args: [
          now,
          ...hits.flatMap(([name, key]) => [name, key]),
          ...checks.flatMap((check) => [check[0], check[1], since(check), AUTH_LIMITS[check[0]].limit]),
        ],
      });
    }
    for (const check of checks) {
      statements.push({
        sql: "SELECT count(*), min(at) FROM rate_limit_hits WHERE bucket = ? AND key = ? AND at > ?",
        args: [check[0], check[1], since(check)],
      });
    }
    if (statements.length === 0) return 0;
    const results = await this.client.batch(statements, "write");
    if (hits.length > 0 && results[0].rowsAffected > 0) return 0;
    let wait = 0;
    checks.forEach((check, index) => {
      const row = results[index + (hits.length > 0 ? 1 : 0)].rows[0];
      const count = row[0];
      const oldest = row[1];
      const { limit, windowMs } = AUTH_LIMITS[check[0]];
      if (Number(count) >= limit) {
        wait = Math.max(wait, Math.max(1, Math.ceil((Number(oldest) + windowMs - now) / 1000)));
      }
    });
    return hits.length > 0 ? Math.max(1, wait) : wait;
  }

  async reset(name: LimitName, key: string): Promise<void> {
    await this.client.execute({
      sql: "DELETE FROM rate_limit_hits WHERE bucket = ? AND key = ?",
      args: [name, key],
    });
  }
}

/** Removes the attempts too old to count for any limit; returns how many. */
export async function pruneRateLimitHits(db: Database, now = Date.now()): Promise<number> {
  const removed = await db.delete(rateLimitHits).where(lte(rateLimitHits.at, now - LONGEST_LIMIT_WINDOW_MS))
    .returning({ id: rateLimitHits.id });
  return removed.length;
}

export function createAuthLimits(kind: "memory" | "database" = "memory", client?: Client): AuthLimits {
  if (kind === "database") {
    if (!client) throw new Error("Rate limits counted in the database need the database.");
    return new DatabaseAuthLimits(client);
  }
  return new MemoryAuthLimits();
}

export function tooManyAttemptsMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
