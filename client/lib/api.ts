import type { z } from "zod";
import { storedToken } from "./storage.ts";

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

/**
 * Calls the API with the stored token and parses the answer with `schema` when given. A failed call throws an
 * ApiError carrying the server's own message.
 */
export async function api<T = unknown>(
  path: string,
  options: { method?: string; json?: unknown; form?: FormData; schema?: z.ZodType<T>; signal?: AbortSignal } =
    {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method: options.method ?? (options.json !== undefined || options.form ? "POST" : "GET"),
      headers: authHeaders(),
      body: options.form ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError("Cannot reach the server. Check your connection and try again.", 0, null);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text as the message.
  }
  if (!response.ok) throw new ApiError(messageFrom(body, response.status), response.status, body);
  return options.schema ? options.schema.parse(body) : body as T;
}
