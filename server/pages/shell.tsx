import type { ReactNode } from "react";
import { Island } from "./island.tsx";
import AccountMenu, { type AccountMenuProps } from "../../client/islands/AccountMenu.tsx";
import Sidebar from "../../client/islands/Sidebar.tsx";
import Toaster from "../../client/islands/Toaster.tsx";
import type { FooterLink, LogoInfo } from "../../shared/api/appearance.ts";

/** The app shell: sidebar with the workspace list, the page, the toast area. */
export function AppShell(
  { appName, brand, account, activeSlug = null, activeThreadSlug = null, children }: {
    appName: string;
    /** The custom logo and the footer links (Settings → Appearance). */
    brand: { logo: LogoInfo; footerLinks: FooterLink[] };
    /** What the account menu offers, known before any script runs (AccountMenu). */
    account: AccountMenuProps;
    activeSlug?: string | null;
    activeThreadSlug?: string | null;
    children: ReactNode;
  },
) {
  return (
    <div className="shell">
      <Island
        name="Sidebar"
        component={Sidebar}
        props={{ activeSlug, activeThreadSlug, appName, ...brand }}
      />
      <main className="main" id="main">
        <Island name="AccountMenu" component={AccountMenu} props={account} />
        {children}
      </main>
      <Island name="Toaster" component={Toaster} props={{}} />
    </div>
  );
}

/** Screens without the sidebar: login, onboarding, single sign-on, invitations. */
export function BareShell({ children }: { children: ReactNode }) {
  return (
    <div className="bare">
      <main className="bare-main" id="main">{children}</main>
      <Island name="Toaster" component={Toaster} props={{}} />
    </div>
  );
}

export const SHELL_ISLANDS = ["Sidebar", "AccountMenu", "Toaster"];
