import {
  FOOTER_ICONS,
  type FooterIcon,
  type FooterLink,
  isHttpUrl,
  MAX_FOOTER_LINKS,
  type WelcomeMessage,
} from "../../../shared/api/appearance.ts";

/** A footer row being edited: an icon and an address, both maybe empty. */
export interface FooterRow {
  icon: FooterIcon;
  url: string;
}

/** Always 3 rows to edit: the saved links, then empty ones. */
export function footerRows(links: readonly FooterLink[]): FooterRow[] {
  const rows: FooterRow[] = links.slice(0, MAX_FOOTER_LINKS).map((link) => ({ ...link }));
  while (rows.length < MAX_FOOTER_LINKS) rows.push({ icon: FOOTER_ICONS[0], url: "" });
  return rows;
}

/**
 * The links to save from the rows (rows without an address are left out) and, per row, the key of the problem
 * with its address: the server's rule, http(s) only.
 */
export function footerLinksOf(
  rows: readonly FooterRow[],
): { links: FooterLink[]; problems: (string | null)[] } {
  const problems = rows.map((row) =>
    row.url.trim() === "" ? null : isHttpUrl(row.url.trim()) ? null : "appearance.footer.httpOnly"
  );
  const links = rows.filter((row) => row.url.trim() !== "").map((row) => ({
    icon: row.icon,
    url: row.url.trim(),
  }));
  return { links, problems };
}

/** The welcome messages to save: trimmed, without entries that hold neither text. */
export function welcomeToSave(messages: readonly WelcomeMessage[]): WelcomeMessage[] {
  return messages
    .map((message) => ({ user: message.user.trim(), response: message.response.trim() }))
    .filter((message) => message.user !== "" || message.response !== "");
}

/** The stored `footer_data` text as links; anything unreadable is none. */
export function parseFooterData(value: unknown): FooterLink[] {
  if (typeof value !== "string") return [];
  try {
    const parsed = JSON.parse(value);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry): entry is FooterLink =>
      entry && typeof entry.url === "string" && (FOOTER_ICONS as readonly string[]).includes(entry.icon)
    );
  } catch {
    return [];
  }
}

/** The accept list of the logo's file input. */
export const LOGO_ACCEPT = ".png,.jpg,.jpeg,.webp,.svg,image/png,image/jpeg,image/webp,image/svg+xml";
