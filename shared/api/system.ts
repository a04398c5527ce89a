import * as z from "zod";
import { jsonObject, textOr } from "./body.ts";

const notAnObject = "The settings must be a JSON object of setting names and values.";

/**
 * `POST /api/system/update-env`: setting names and their new values, each checked by the settings service.
 * The object is passed on as sent, so that every name in it (even `__proto__`) is checked.
 */
export const SettingsChanges = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { error: notAnObject },
);

/**
 * `POST /api/system/custom-models`: the provider whose models to list, and optionally the base URL and key to
 * ask with (fields that are not text are ignored).
 */
export const ModelLookupInput = jsonObject({
  provider: textOr(undefined),
  basePath: textOr(undefined),
  apiKey: textOr(undefined),
  /** The lookup's further values (the reference sends Bedrock's `{region}`); anything but an object is ignored. */
  options: z.unknown().optional().transform((value) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : undefined
  ),
});

/** As long as a workspace's own prompt may be. */
export const MAX_DEFAULT_PROMPT = 20_000;

/** `POST /api/system/default-system-prompt`: the new default, trimmed; empty (or none) means the built-in one. */
/**
 * The field is required (text, or null for the built-in): a body without it (`{}`, `null`, a number) is a
 * mistake, and must not wipe the admin's stored prompt.
 */
export const DefaultPromptInput = jsonObject({
  defaultSystemPrompt: z.string({ error: "defaultSystemPrompt must be text." }).nullable()
    .transform((prompt) => (prompt ?? "").trim())
    .refine(
      (prompt) => prompt.length <= MAX_DEFAULT_PROMPT,
      `The default system prompt must be at most ${MAX_DEFAULT_PROMPT} characters.`,
    ),
});
