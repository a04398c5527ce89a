import type { ReactNode } from "react";
import { LineIcon } from "../../components/LineIcon.tsx";
import type { ProviderKind } from "../../../shared/providers/llm_catalog.ts";

/** A line icon in the provider lists; decorative, since the row names the provider and its kind in text. */
function Icon({ children }: { children: ReactNode }) {
  return <LineIcon className="provider-kind-icon" size={22} strokeWidth={1.8}>{children}</LineIcon>;
}

/** A hosted API reached over the internet. */
export const CloudIcon = () => (
  <Icon>
    <path d="M7 18h10.5a4 4 0 0 0 .6-7.95A6 6 0 0 0 6.4 9.2 4.5 4.5 0 0 0 7 18z" />
  </Icon>
);

/** A model server running on this machine or the local network. */
export const LocalIcon = () => (
  <Icon>
    <rect x="3" y="4" width="18" height="12" rx="2" />
    <path d="M8 20h8M12 16v4" />
  </Icon>
);

/** An endpoint the admin runs or points at: an OpenAI-compatible server, a proxy, a database server. */
export const SelfHostedIcon = () => (
  <Icon>
    <rect x="3" y="4" width="18" height="7" rx="1.5" />
    <rect x="3" y="13" width="18" height="7" rx="1.5" />
    <path d="M7 7.5h.01M7 16.5h.01M11 7.5h6M11 16.5h6" />
  </Icon>
);

/** Part of Lectern itself: nothing to run or connect. */
export const BuiltInIcon = () => (
  <Icon>
    <path d="M12 3 20 7.5v9L12 21l-8-4.5v-9L12 3z" />
    <path d="M4 7.5 12 12l8-4.5M12 12v9" />
  </Icon>
);

const ICONS: Record<ProviderKind, () => ReactNode> = {
  "cloud": CloudIcon,
  "local": LocalIcon,
  "self-hosted": SelfHostedIcon,
  "built-in": BuiltInIcon,
};

export function ProviderKindIcon({ kind }: { kind: ProviderKind }) {
  const KindIcon = ICONS[kind];
  return <KindIcon />;
}
