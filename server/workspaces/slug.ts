import slugify from "slugify";

const SPELLED: Record<string, string> = {
  "+": " plus ",
  "!": " bang ",
  "@": " at ",
  "*": " splat ",
  ".": " dot ",
};

/**
 * Workspace slugs as the reference makes them (docs/api-compat.md#workspace-object-and-slugs): `"My Docs!"` →
 * `my-docs-bang`, `"C++ & AI"` → `c-plus-plus-and-ai`. Anything that is not a letter, digit, `-` or `_` is
 * dropped as well, so a slug is always one safe URL segment; an empty result becomes a UUID.
 */
export function workspaceSlug(name: string, options: { lower?: boolean } = {}): string {
  const spelled = name.replace(/[:~()'"|]/g, "").replace(/[+!@*.]/g, (character) => SPELLED[character]);
  const slug = slugify(spelled, { lower: options.lower ?? true })
    .replace(/[^\p{L}\p{N}_-]+/gu, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || crypto.randomUUID();
}

/**
 * A thread slug a client chose (the developer API's `thread/new`): spelled and cleaned as a workspace slug, but
 * its case kept, as the reference keeps it.
 */
export function threadSlug(wanted: string): string {
  return workspaceSlug(wanted, { lower: false });
}

/** A file name for a stored document: letters, digits, `.`, `_` and `-` only, never a path. */
export function documentFileStem(originalName: string): string {
  const base = originalName.split(/[\\/]/).pop() ?? "";
  const stem = slugify(base, { lower: false })
    .replace(/[^\p{L}\p{N}._-]+/gu, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 100);
  return stem || "document";
}
