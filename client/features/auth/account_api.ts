import { useCallback, useEffect, useState } from "react";
import { api, apiBlob } from "../../lib/api.ts";
import { t } from "../../lib/i18n.ts";
import { lazySchema } from "../../lib/lazy_schema.ts";

/**
 * The signed-in user's profile picture as an object URL (`GET /system/pfp/:id`); null while there is none.
 * `reload` fetches it again after an upload or removal.
 */
export function useProfilePicture(userId: number | null) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((value) => value + 1), []);

  useEffect(() => {
    if (userId === null) return setUrl(null);
    const controller = new AbortController();
    let objectUrl: string | null = null;
    apiBlob(`/system/pfp/${userId}`, { signal: controller.signal })
      .then((blob) => {
        objectUrl = blob && blob.type.startsWith("image/") ? URL.createObjectURL(blob) : null;
        setUrl(objectUrl);
        setError(null);
      })
      .catch((caught: Error) => {
        if (caught.name === "AbortError") return;
        setUrl(null);
        setError(t("account.pfp.fetchFailed"));
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [userId, version]);

  return { url, error, reload };
}

/** Reads a `{success, error}` answer; throws with the server's error, else `fallback`. */
async function succeed(call: Promise<{ success: boolean; error?: string | null }>, fallback: string) {
  const answer = await call;
  if (!answer.success) throw new Error(answer.error || fallback);
}

export function uploadProfilePicture(file: File) {
  const form = new FormData();
  form.append("file", file);
  return succeed(
    api("/system/upload-pfp", { form, schema: lazySchema((s) => s.auth.SuccessAnswer) }),
    t("account.pfp.uploadFallback"),
  );
}

export function removeProfilePicture() {
  return succeed(
    api("/system/remove-pfp", { method: "DELETE", schema: lazySchema((s) => s.auth.SuccessAnswer) }),
    t("account.pfp.removeFallback"),
  );
}

/** The update answer; a changed password ends the older sessions, so the server may hand out a new token. */

/**
 * `POST /system/user` with only the fields that are filled in. Returns the new token the server
 * issued after a password change, else null.
 */
export async function updateAccount(
  changes: { username?: string; password?: string; preferredLanguage?: string },
): Promise<string | null> {
  const filled = Object.fromEntries(Object.entries(changes).filter(([, value]) => value));
  const answer = await api("/system/user", {
    json: filled,
    schema: lazySchema((s) => s.auth.UpdateAccountAnswer),
  });
  if (!answer.success) throw new Error(answer.error || t("account.updateFallback"));
  return answer.token || null;
}
