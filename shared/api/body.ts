import * as z from "zod";

/**
 * A JSON body whose fields the schemas of `shape` read. Anything but an object (null, a list, a number) reads
 * as an object without fields, so a body of `null` gets the same answer as a body that leaves the fields out.
 */
export function jsonObject<S extends Record<string, z.ZodType>>(shape: S) {
  return z.preprocess(
    (value) => (typeof value === "object" && value !== null && !Array.isArray(value) ? value : {}),
    z.object(shape),
  );
}

/** A field that is text, or `fallback` when it is missing or holds anything else. */
export const textOr = <T extends string | undefined>(fallback: T) =>
  z.unknown().optional().transform((value): string | T => typeof value === "string" ? value : fallback);

/**
 * A field kept as sent, for a rule the service applies after checks of its own (the instance's mode, a stored
 * row), so that the order of the answers stays the same.
 */
export const laterChecked = z.unknown().optional();
