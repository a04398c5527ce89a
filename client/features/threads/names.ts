/** Thread names show at most this many characters in the sidebar. */
export const THREAD_NAME_DISPLAY_MAX = 25;

/** The name cut to its first 25 characters (whole code points) plus an ellipsis when it is longer. */
export function truncateThreadName(name: string, max = THREAD_NAME_DISPLAY_MAX): string {
  const characters = Array.from(name);
  return characters.length > max ? `${characters.slice(0, max).join("")}…` : name;
}

/**
 * The thread a page shows, read from its address: a thread slug on /workspace/<slug>/t/<thread>, null on the
 * workspace's own chat (its default thread), undefined elsewhere (its settings pages).
 */
export function threadFromPath(pathname: string, workspaceSlug: string): string | null | undefined {
  const parts = pathname.split("/").filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  if (parts[0] !== "workspace" || parts[1] !== workspaceSlug) return undefined;
  if (parts.length === 2) return null;
  if (parts.length === 4 && parts[2] === "t") return parts[3];
  return undefined;
}
