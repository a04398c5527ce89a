/** Browser storage keys, prefixed with the product's name (docs/api-compat.md#client-behaviour). */
export const STORAGE_KEYS = {
  user: "lectern_user",
  token: "lectern_authToken",
  authTimestamp: "lectern_authTimestamp",
  /** Kept only between the recovery form and the reset form of the login screen. */
  resetToken: "lectern_resetToken",
} as const;

/** The browser's local storage, or null where there is none (server rendering, blocked storage). */
export function localStore(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function storedToken(): string | null {
  try {
    return localStore()?.getItem(STORAGE_KEYS.token) ?? null;
  } catch {
    return null;
  }
}
