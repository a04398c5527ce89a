import { join } from "node:path";
import { decodeBase64, encodeBase64 } from "../encoding.ts";
import { writeFileAtomic } from "../storage.ts";

export interface InstanceKeys {
  /** HS256 key for session JWTs. */
  jwt: Uint8Array;
  /** AES-256-GCM key for secrets kept in the settings table. */
  settings: CryptoKey;
}

async function loadOrCreate(path: string): Promise<Uint8Array> {
  try {
    const text = (await Deno.readTextFile(path)).trim();
    const bytes = decodeBase64(text);
    if (bytes.length >= 32) return bytes;
    throw new Error(`The key file ${path} is damaged: it holds ${bytes.length} bytes, 32 or more expected`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(64));
  await writeFileAtomic(path, encodeBase64(bytes) + "\n", 0o600);
  return bytes;
}

/** Reads the instance keys from `<storage>/keys/`, generating each on first start. */
export async function loadInstanceKeys(directory: string): Promise<InstanceKeys> {
  const jwt = await loadOrCreate(join(directory, "jwt.key"));
  const settingsBytes = await loadOrCreate(join(directory, "settings.key"));
  const settings = await crypto.subtle.importKey("raw", settingsBytes.slice(0, 32), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  return { jwt, settings };
}

const PREFIX = "enc:v1:";

export async function encryptSecret(key: CryptoKey, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(plain)),
  );
  const joined = new Uint8Array(iv.length + cipher.length);
  joined.set(iv);
  joined.set(cipher, iv.length);
  return PREFIX + encodeBase64(joined);
}

export async function decryptSecret(key: CryptoKey, stored: string): Promise<string> {
  if (!stored.startsWith(PREFIX)) throw new Error("The stored secret is not in the expected format");
  const joined = decodeBase64(stored.slice(PREFIX.length));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: joined.slice(0, 12) },
    key,
    joined.slice(12),
  );
  return new TextDecoder().decode(plain);
}
