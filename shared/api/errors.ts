/** HTTP status per error code (docs/api-compat.md#status-codes-and-error-bodies). */
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
  internal: 500,
  provider_failed: 502,
  unavailable: 503,
  storage_full: 507,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
