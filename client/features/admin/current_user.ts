import { useEffect, useState } from "react";
import type * as z from "zod";
import { RefreshUserAnswer, type User } from "../../../shared/api/auth.ts";
import { api } from "../../lib/api.ts";

type Result = { user: User | null; error: string | null };

/** What a refresh-user answer says: the user, or the server's message why there is none. */
export function currentUserResult(answer: z.infer<typeof RefreshUserAnswer>): Result {
  return answer.success && answer.user ? { user: answer.user, error: null } : {
    user: null,
    error: answer.message ?? null,
  };
}

/**
 * The signed-in user from `GET /api/system/refresh-user`, asked only when `enabled` (multi-user mode; a
 * single-user instance has no user). `loading` is true until the answer is in.
 */
export function useCurrentUser(enabled: boolean): Result & { loading: boolean } {
  const [result, setResult] = useState<Result | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    api("/system/refresh-user", { schema: RefreshUserAnswer, signal: controller.signal })
      .then((answer) => setResult(currentUserResult(answer)))
      .catch((caught: Error) => {
        if (caught.name !== "AbortError") setResult({ user: null, error: caught.message });
      });
    return () => controller.abort();
  }, [enabled]);
  if (!enabled) return { user: null, error: null, loading: false };
  return { user: result?.user ?? null, error: result?.error ?? null, loading: result === null };
}
