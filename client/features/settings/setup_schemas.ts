import * as z from "zod";

// The setup answers' shapes, loaded lazily (client/lib/schemas.ts).

/** `results` of `GET /api/setup-complete`: the instance keys plus, when allowed, every saved setting. */
export const SetupResults = z.looseObject({
  MultiUserMode: z.boolean(),
  RequiresAuth: z.boolean(),
  OnboardingComplete: z.boolean().optional(),
  LLMProvider: z.string().nullable(),
  VectorDB: z.string().nullable(),
  EmbeddingEngine: z.string().nullable().optional(),
  CustomAppName: z.string().nullable().optional(),
  LockedSettings: z.array(z.string()).optional(),
  /** Whether an admin may issue single-use login links (SIMPLE_SSO_ENABLED); admins and managers only. */
  SimpleSSOEnabled: z.boolean().optional(),
  /** Whether credential logins and invitations are turned off (SIMPLE_SSO_NO_LOGIN); admins and managers only. */
  SimpleSSONoLogin: z.boolean().optional(),
  /** The "Log in with …" button's provider name when OpenID Connect login is on (before login too). */
  OidcLogin: z.string().nullable().optional(),
  /** False when password login is turned off (only while OpenID Connect login is on). */
  PasswordLogin: z.boolean().optional(),
  /** WORKSPACE_DELETION_PROTECTION: only admins delete workspaces, after typing the name. */
  WorkspaceDeletionProtection: z.boolean().optional(),
});
export type SetupResults = z.infer<typeof SetupResults>;
export const SetupAnswer = z.object({ results: SetupResults });

export const UpdateEnvAnswer = z.looseObject({
  newValues: z.record(z.string(), z.string()).optional(),
  error: z.union([z.string(), z.boolean(), z.null()]).optional(),
});
