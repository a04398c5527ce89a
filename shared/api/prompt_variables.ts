import * as z from "zod";

/** Longest value and description of a stored prompt variable. */
export const MAX_VARIABLE_VALUE = 20_000;
export const MAX_VARIABLE_DESCRIPTION = 1_000;
const KEY = /^[A-Za-z0-9_]+$/;

/** Which rule a create or update body breaks first, with the reference's messages where it has them. */
function variableProblem(input: Record<string, unknown>): string | null {
  const { key, value, description } = input;
  if (!key || !value) return "Key and value are required";
  if (typeof key !== "string") return "Key must be a string";
  if (typeof value !== "string") return "Value must be text";
  if (!KEY.test(key)) return "Key must contain only letters, numbers and underscores";
  if (key.length < 3) return "Key must be at least 3 characters";
  if (key.length > 255) return "Key must be less than 255 characters";
  if (value.trim() === "") return "Key and value are required";
  if (value.length > MAX_VARIABLE_VALUE) return `Value must be at most ${MAX_VARIABLE_VALUE} characters`;
  if (description !== undefined && description !== null && typeof description !== "string") {
    return "Description must be text";
  }
  if (typeof description === "string" && description.trim().length > MAX_VARIABLE_DESCRIPTION) {
    return `Description must be at most ${MAX_VARIABLE_DESCRIPTION} characters`;
  }
  return null;
}

/**
 * `POST /api/system/prompt-variables` and `PUT …/:id`: a key of letters, digits and underscores, a value and an
 * optional description (blank reads as none). Anything but an object reads as no fields.
 */
export const PromptVariableInput = z.unknown().transform((body, context) => {
  const input = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const problem = variableProblem(input);
  if (problem) {
    context.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  const description = typeof input.description === "string" ? input.description.trim() : "";
  return { key: input.key as string, value: input.value as string, description: description || null };
});
export type PromptVariableInput = z.output<typeof PromptVariableInput>;
