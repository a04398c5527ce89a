import * as z from "zod";

const id = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(
  z.number().int().positive(),
);

import { MAX_MESSAGE_CHARS, MAX_MESSAGE_CHARS_SHOWN } from "../limits.ts";

export { MAX_MESSAGE_CHARS } from "../limits.ts";

export const DeleteChatsInput = z.object({ chatIds: z.array(id).max(10_000) });
export const DeleteEditedChatsInput = z.object({ startingId: id });
export const UpdateChatInput = z.object({
  chatId: id,
  newText: z.string().trim().min(1, "The new text cannot be empty.").max(
    MAX_MESSAGE_CHARS,
    `The new text is too long: at most ${MAX_MESSAGE_CHARS_SHOWN} characters.`,
  ),
  role: z.enum(["user", "assistant"]).default("assistant"),
});
export const FeedbackInput = z.object({
  feedback: z.union([z.boolean(), z.null(), z.literal(1), z.literal(0), z.literal(-1)]).transform((value) =>
    value === null ? null : value === true || value === 1
  ),
});
export const ForkThreadInput = z.object({ chatId: id, threadSlug: z.string().nullable().optional() });
export const RenameThreadInput = z.object({
  name: z.string({ error: "name is required." }).trim().min(1, "The thread name cannot be empty.")
    .max(255, "The thread name cannot be longer than 255 characters."),
});
export const BulkDeleteThreadsInput = z.object({ slugs: z.array(z.string()).max(10_000) });
