import * as z from "zod";

/**
 * What a developer API key may do. "admin" keys do everything (the reference's only kind); "read" keys read
 * everything and change nothing; "workspaces" keys reach only the workspaces they name, with the permissions
 * they list.
 */
export const API_KEY_SCOPES = ["admin", "read", "workspaces"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What a "workspaces" key may do in its workspaces: chat (and threads), manage documents, read. */
export const API_KEY_PERMISSIONS = ["chat", "documents", "read"] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/** The largest rate limit a key may be given, in requests per minute. */
export const MAX_API_KEY_RATE_LIMIT = 10_000;
export const MAX_API_KEY_NAME = 100;
const WORKSPACE_IDS_ERROR = "workspaceIds must be a list of workspace ids.";
const PERMISSIONS_ERROR = 'permissions must be a list of "chat", "documents" and "read".';

/**
 * `POST /api/admin/generate-api-key` and `POST /api/system/generate-api-key`. The reference sends `{name}` or
 * nothing; the scope fields are Lectern's. A "workspaces" key must name at least one workspace and permission.
 * Each message names its field (read with `bareMessages`).
 */
export const GenerateApiKeyBody = z.object({
  name: z.string().trim().max(MAX_API_KEY_NAME, {
    error: `name must be at most ${MAX_API_KEY_NAME} characters.`,
  })
    .nullish().transform((name) => name || null),
  scope: z.enum(API_KEY_SCOPES, { error: 'scope must be "admin", "read" or "workspaces".' }).default("admin"),
  workspaceIds: z.array(z.number({ error: WORKSPACE_IDS_ERROR }).int().positive(), {
    error: WORKSPACE_IDS_ERROR,
  })
    .max(1000).default([]),
  permissions: z.array(z.enum(API_KEY_PERMISSIONS, { error: PERMISSIONS_ERROR }), {
    error: PERMISSIONS_ERROR,
  })
    .default([]),
  rateLimit: z.number({ error: "rateLimit must be a number of requests per minute, or null." }).int()
    .min(1, { error: "rateLimit must be at least 1 request per minute." })
    .max(MAX_API_KEY_RATE_LIMIT, { error: `rateLimit must be at most ${MAX_API_KEY_RATE_LIMIT} per minute.` })
    .nullish().transform((limit) => limit ?? null),
}).superRefine((body, context) => {
  if (body.scope !== "workspaces") return;
  if (body.workspaceIds.length === 0) {
    context.addIssue({
      code: "custom",
      path: ["workspaceIds"],
      message: "workspaceIds must name at least one workspace for a key limited to workspaces.",
    });
  } else if (body.permissions.length === 0) {
    context.addIssue({
      code: "custom",
      path: ["permissions"],
      message:
        'permissions must list at least one of "chat", "documents" and "read" for a key limited to workspaces.',
    });
  }
});
export type GenerateApiKeyInput = z.output<typeof GenerateApiKeyBody>;

/** One key as the list shows it: `secret` is masked; the whole key is only in the answer that made it. */
export const ApiKeyView = z.object({
  id: z.number(),
  name: z.string().nullable(),
  secret: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  workspaces: z.array(z.object({ id: z.number(), slug: z.string(), name: z.string() })),
  permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
  rateLimit: z.number().nullable(),
  createdBy: z.object({ id: z.number(), username: z.string().nullable(), role: z.string() }).nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUpdatedAt: z.string(),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

export const ApiKeyList = z.object({ apiKeys: z.array(ApiKeyView), error: z.string().nullable() });
/** The answer of generate-api-key: the only time `secret` holds the whole key. */
export const GeneratedApiKey = z.object({ apiKey: ApiKeyView.nullable(), error: z.string().nullable() });
