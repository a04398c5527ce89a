import type { ReactNode } from "react";
import type { FooterIcon as IconName } from "../../shared/api/appearance.ts";
import { LineIcon } from "./LineIcon.tsx";

/** The line drawing of each footer icon (the reference's icon names). */
const SHAPES: Record<IconName, ReactNode> = {
  BookOpen: <path d="M2 5h7a3 3 0 0 1 3 3v12a2 2 0 0 0-2-2H2zM22 5h-7a3 3 0 0 0-3 3v12a2 2 0 0 1 2-2h8z" />,
  DiscordLogo: (
    <>
      <path d="M7 17c-2-.5-4-1.5-4-1.5S3 9 6 6c2-1 4-1 4-1l.5 1h3l.5-1s2 0 4 1c3 3 3 9.5 3 9.5s-2 1-4 1.5l-1-2" />
      <circle cx="9" cy="12" r="1" />
      <circle cx="15" cy="12" r="1" />
    </>
  ),
  GithubLogo: (
    <path d="M9 19c-4 1.5-4-2-6-2.5M15 22v-3.5a3 3 0 0 0-1-2.5c3 0 6-1.5 6-6a5 5 0 0 0-1.5-3.5 4.5 4.5 0 0 0 0-3.5s-1.2-.3-3.5 1.3a12 12 0 0 0-6 0C6.7 2.7 5.5 3 5.5 3a4.5 4.5 0 0 0 0 3.5A5 5 0 0 0 4 10c0 4.5 3 6 6 6a3 3 0 0 0-1 2.5V22" />
  ),
  Envelope: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3 7 9 6 9-6" />
    </>
  ),
  LinkSimple: (
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  ),
  HouseLine: <path d="M3 11 12 3l9 8M5 9.5V21h14V9.5M10 21v-6h4v6" />,
  Globe: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
    </>
  ),
  Briefcase: (
    <>
      <rect x="3" y="7" width="18" height="13" rx="2" />
      <path d="M9 7V5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2v2M3 13h18" />
    </>
  ),
  Info: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v6M12 7.5v.5" />
    </>
  ),
};

export function FooterIcon({ name, size = 18 }: { name: IconName; size?: number }) {
  return <LineIcon size={size}>{SHAPES[name] ?? SHAPES.Info}</LineIcon>;
}
