/** Browser storage keys, prefixed with the product's name (spec 01 §3). */
export const STORAGE_KEYS = {
  user: "lectern_user",
  token: "lectern_authToken",
  authTimestamp: "lectern_authTimestamp",
} as const;

export function storedToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEYS.token) ?? null;
  } catch {
    return null;
  }
}
