import { useEffect, useState } from "react";
import { z } from "zod";
import { api, ApiError } from "../../lib/api.ts";

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
const SetupAnswer = z.object({ results: SetupResults });

export async function fetchSetup(signal?: AbortSignal): Promise<SetupResults> {
  return (await api("/setup-complete", { schema: SetupAnswer, signal })).results;
}

/** Loads the instance keys after hydration; `setup` stays null while loading or after a failure. */
export function useSetup(): { setup: SetupResults | null; error: string | null } {
  const [setup, setSetup] = useState<SetupResults | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchSetup(controller.signal).then(setSetup).catch((caught: Error) => {
      if (caught.name !== "AbortError") setError(caught.message);
    });
    return () => controller.abort();
  }, []);
  return { setup, error };
}

const UpdateEnvAnswer = z.looseObject({
  newValues: z.record(z.string(), z.string()).optional(),
  error: z.union([z.string(), z.boolean(), z.null()]).optional(),
});

/** Saves instance settings; the server reports every problem at once, joined by newlines. */
export async function updateEnv(settings: Record<string, string>): Promise<Record<string, string>> {
  const answer = await api("/system/update-env", { json: settings, schema: UpdateEnvAnswer });
  if (typeof answer.error === "string" && answer.error) throw new ApiError(answer.error, 200, answer);
  return answer.newValues ?? {};
}
