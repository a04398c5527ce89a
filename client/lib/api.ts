import type * as z from "zod";
import { storedToken } from "./storage.ts";
import { isLazySchema, type LazySchema, loadSchemas, resolveSchema } from "./lazy_schema.ts";

export const API_BASE = "/api";

export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly body: unknown) {
    super(message);
    this.name = "ApiError";
  }
}

export function authHeaders(): Record<string, string> {
  const token = storedToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Called when a call that carried the stored token answers 401: that session is no longer valid. */
let unauthorizedHandler: (() => void) | null = null;

/** Sets (or, with null, removes) what happens when the stored session turns out to be invalid. */
export function onUnauthorized(handler: (() => void) | null) {
  unauthorizedHandler = handler;
}

function messageFrom(body: unknown, status: number): string {
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    for (const key of ["error", "message"]) {
      if (typeof record[key] === "string" && record[key]) return record[key] as string;
    }
  }
  if (typeof body === "string" && body.trim()) return body.trim();
  return `The server answered ${status}`;
}

async function send(path: string, init: RequestInit): Promise<{ response: Response; sentToken: boolean }> {
  const headers = authHeaders();
  try {
    const response = await fetch(API_BASE + path, { ...init, headers });
    return { response, sentToken: "Authorization" in headers };
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError("Cannot reach the server. Check your connection and try again.", 0, null);
  }
}

/** The answer's body: parsed JSON, else its text. */
async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

async function failure(response: Response, sentToken: boolean): Promise<ApiError> {
  if (response.status === 401 && sentToken) unauthorizedHandler?.();
  const body = await bodyOf(response);
  return new ApiError(messageFrom(body, response.status), response.status, body);
}

/**
 * Calls the API with the stored token and parses the answer with `schema` when given (a lazy schema is fetched
 * alongside the call). A failed call throws an ApiError carrying the server's own message.
 */
export async function api<T = unknown>(
  path: string,
  options: {
    method?: string;
    json?: unknown;
    form?: FormData;
    schema?: z.ZodType<T> | LazySchema<T>;
    signal?: AbortSignal;
  } = {},
): Promise<T> {
  if (options.schema && isLazySchema(options.schema)) loadSchemas().catch(() => {});
  const { response, sentToken } = await send(path, {
    method: options.method ?? (options.json !== undefined || options.form ? "POST" : "GET"),
    body: options.form ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined),
    signal: options.signal,
  });
  if (!response.ok) throw await failure(response, sentToken);
  const body = await bodyOf(response);
  return options.schema ? (await resolveSchema(options.schema)).parse(body) : body as T;
}

/** Fetches a binary answer (an image) with the stored token; null when the server has none (204). */
export async function apiBlob(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob | null> {
  const { response, sentToken } = await send(path, { signal: options.signal });
  if (!response.ok) throw await failure(response, sentToken);
  if (response.status === 204) return null;
  return await response.blob();
}
