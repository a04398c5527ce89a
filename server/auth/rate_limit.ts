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
export interface AuthLimits {
  loginPerAddress: SlidingWindow;
  loginFailuresPerAddressAndUsername: SlidingWindow;
  recoveryPerAddress: SlidingWindow;
  recoveryPerAddressAndUsername: SlidingWindow;
}

/** The key of one address guessing at one username. */
export const addressAndUsername = (address: string, username: string) => `${address}\n${username}`;

export function createAuthLimits(): AuthLimits {
  const minutes = (count: number) => count * 60_000;
  return {
    loginPerAddress: new SlidingWindow(30, minutes(5)),
    loginFailuresPerAddressAndUsername: new SlidingWindow(10, minutes(15)),
    recoveryPerAddress: new SlidingWindow(10, minutes(15)),
    recoveryPerAddressAndUsername: new SlidingWindow(5, minutes(15)),
  };
}

export function tooManyAttemptsMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
