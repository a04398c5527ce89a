import type { TestApp } from "./test_app.ts";

/**
 * Makes a developer API key through the admin call (`session`: an admin's token in multi-user mode, or the
 * instance password's token with `path` "/api/system/generate-api-key").
 */
export async function makeApiKey(
  app: TestApp,
  scope: Record<string, unknown> = {},
  session?: string,
  path = session ? "/api/admin/generate-api-key" : "/api/system/generate-api-key",
): Promise<{ id: number; key: string }> {
  const answer = await app.json<{ apiKey: { id: number; secret: string } | null; error: string | null }>(
    path,
    { json: scope, headers: session ? { Authorization: `Bearer ${session}` } : {} },
  );
  if (answer.status !== 200 || !answer.body.apiKey) {
    throw new Error(`The API key could not be made: ${JSON.stringify(answer.body)}`);
  }
  return { id: answer.body.apiKey.id, key: answer.body.apiKey.secret };
}

/** Request options that carry a developer API key. */
export const withKey = (key: string, init: RequestInit & { json?: unknown } = {}) => ({
  ...init,
  headers: { ...init.headers as Record<string, string>, Authorization: `Bearer ${key}` },
});
