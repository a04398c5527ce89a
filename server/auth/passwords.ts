// argon2id (the library's default algorithm) with OWASP's recommended cost: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

import { createLimiter } from "../limiter.ts";

// The native addon loads on the first password operation; an open instance never needs it.
let argon2: Promise<typeof import("@node-rs/argon2")> | null = null;
const loadArgon2 = () => (argon2 ??= import("@node-rs/argon2"));

/**
 * One hash at a time per processor: each holds 19 MiB, and a storm of guesses run all at once raised the
 * server past 500 MiB while going no faster than the processors allow.
 */
const hashing = createLimiter(() => Math.max(2, navigator.hardwareConcurrency ?? 2));

/** An argon2id hash of a password or recovery code. */
export async function hashSecret(secret: string): Promise<string> {
  const { hash } = await loadArgon2();
  return await hashing.run(() => hash(secret, OPTIONS));
}

/** Whether `secret` matches `hashed`; a malformed hash is a mismatch, never an exception. */
export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  return await hashing.run(async () => {
    try {
      return await verify(hashed, secret);
    } catch {
      return false;
    }
  });
}

let dummy: Promise<string> | null = null;

/** Spends the time of one verification, so that an unknown username answers as slowly as a wrong password. */
export async function verifyNothing(secret: string): Promise<false> {
  dummy ??= hashSecret(crypto.randomUUID());
  await verifySecret(await dummy, secret);
  return false;
}

/** sha256 hex of a high-entropy token (reset and single sign-on tokens are stored this way). */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A random URL-safe token of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
