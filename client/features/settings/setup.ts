import { useEffect, useState } from "react";
import { lazySchema } from "../../lib/lazy_schema.ts";
import { api, ApiError } from "../../lib/api.ts";

import type { SetupResults } from "./setup_schemas.ts";

export type { SetupResults } from "./setup_schemas.ts";

const SetupAnswer = lazySchema((s) => s.setup.SetupAnswer);
const UpdateEnvAnswer = lazySchema((s) => s.setup.UpdateEnvAnswer);

/** The instance keys the page guard reads (lib/auth.ts). */
export interface GuardSetup {
  MultiUserMode: boolean;
  RequiresAuth: boolean;
  LLMProvider: string | null;
  VectorDB: string | null;
}

/**
 * `GET /api/setup-complete` for the page guard, which runs before a page hydrates: the four keys it reads,
 * checked by hand (zod is not in a page's first load; `fetchSetup` parses the whole answer with it).
 */
export async function fetchGuardSetup(signal?: AbortSignal): Promise<GuardSetup> {
  const answer = await api("/setup-complete", { signal });
  const results = (answer as { results?: unknown } | null)?.results as Record<string, unknown> | undefined;
  const nullableText = (value: unknown) => value === null || typeof value === "string";
  if (
    !results || typeof results !== "object" || typeof results.MultiUserMode !== "boolean" ||
    typeof results.RequiresAuth !== "boolean" || !nullableText(results.LLMProvider) ||
    !nullableText(results.VectorDB)
  ) {
    throw new Error("The server's setup answer is not understood.");
  }
  return results as unknown as GuardSetup;
}

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

/** Saves instance settings; the server reports every problem at once, joined by newlines. */
export async function updateEnv(settings: Record<string, string>): Promise<Record<string, string>> {
  const answer = await api("/system/update-env", { json: settings, schema: UpdateEnvAnswer });
  if (typeof answer.error === "string" && answer.error) throw new ApiError(answer.error, 200, answer);
  return answer.newValues ?? {};
}
