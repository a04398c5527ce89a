import * as z from "zod";

/** Commands the chat handles itself; a preset cannot take their names. */
export const RESERVED_COMMANDS = ["/reset", "/img", "/exit"] as const;

export const PresetInput = z.object({
  command: z.string({ error: "command is required." }).trim().min(1, "The command cannot be empty.").max(64)
    .transform((value) => `/${value.replace(/^\/+/, "").toLowerCase()}`)
    .pipe(
      z.string().regex(
        /^\/[a-z0-9_-]+$/,
        "A command can only hold letters, numbers, underscores and hyphens.",
      ),
    ),
  prompt: z.string({ error: "prompt is required." }).trim().min(1, "The prompt cannot be empty.").max(20_000),
  description: z.string().trim().max(500).default(""),
});

export const Preset = z.object({
  id: z.number(),
  command: z.string(),
  prompt: z.string(),
  description: z.string(),
});
export type Preset = z.infer<typeof Preset>;
