// Without zod on purpose: every page's shell shows the logo, and a page's first load carries no zod (issue 21).

/** A custom logo as the pages know it: a stamp that changes with each upload, and whether a dark variant exists. */
export type LogoInfo = { version: string; dark: boolean } | null;

/** The address of the logo for a theme; the stamp makes it change (and cache for long) with each upload. */
export function logoUrl(theme: "light" | "dark", version: string): string {
  return `/api/system/logo?theme=${theme}&v=${encodeURIComponent(version)}`;
}
