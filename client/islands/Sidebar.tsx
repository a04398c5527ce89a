import { useWorkspaceRole } from "../features/workspace_roles/use_workspace_role.ts";
import { workspaceRoleReaches } from "../../shared/roles.ts";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Workspace } from "../../shared/api/workspaces.ts";
import { paths } from "../../shared/routes.ts";
import { api } from "../lib/api.ts";
import { useCanManage } from "../features/auth/use_can_manage.ts";
import { NewWorkspaceDialog } from "../features/new_workspace.tsx";
import { SidebarSearch } from "../features/search/SidebarSearch.tsx";
import { threadFromPath } from "../features/threads/names.ts";
import { ThreadList } from "../features/threads/ThreadList.tsx";
import { useThreads } from "../features/threads/use_threads.ts";
import type { FooterLink, LogoInfo } from "../../shared/api/appearance.ts";
import { BrandLogo } from "../components/BrandLogo.tsx";
import { FooterIcon } from "../components/FooterIcon.tsx";
import { lazySchema } from "../lib/lazy_schema.ts";

type Props = {
  activeSlug: string | null;
  /** The thread the page shows (/workspace/<slug>/t/<threadSlug>); null or absent elsewhere. */
  activeThreadSlug?: string | null;
  appName: string;
  /** The custom logo (Settings → Appearance), or null for the app name as text. */
  logo?: LogoInfo;
  /** Up to 3 links the admin set, shown at the foot of the sidebar. */
  footerLinks?: FooterLink[];
};

/**
 * The app shell's sidebar: the search over names, the workspace list with the active workspace's threads, New
 * Workspace, settings; a top bar with a menu on phones.
 */
export default function Sidebar(
  { activeSlug, activeThreadSlug, appName, logo = null, footerLinks = [] }: Props,
) {
  const { t } = useTranslation();
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const canManage = useCanManage();
  // A workspace's editors and owners reach its settings too (the server checks the role).
  const activeRole = useWorkspaceRole(activeSlug);
  const canSetActive = canManage || workspaceRoleReaches(activeRole, "editor");
  // Loaded alongside the workspaces, shown under the active one.
  const threads = useThreads(activeSlug);
  const [currentThread, setCurrentThread] = useState<string | null | undefined>(
    activeThreadSlug ?? undefined,
  );

  // A thread slug from the server names the thread; otherwise the address tells the workspace's chat (its
  // default thread) from its settings pages, where no thread is current.
  useEffect(() => {
    if (!activeSlug) return;
    setCurrentThread(
      activeThreadSlug ? activeThreadSlug : threadFromPath(globalThis.location.pathname, activeSlug),
    );
  }, [activeSlug, activeThreadSlug]);

  useEffect(() => {
    api("/workspaces", { schema: lazySchema((s) => s.workspaces.WorkspaceList) })
      .then((answer) => setWorkspaces(answer.workspaces))
      .catch((caught: Error) => setError(caught.message));
  }, []);

  return (
    <nav className={`sidebar${menuOpen ? " open" : ""}`} aria-label={t("sidebar.label")}>
      <div className="sidebar-top">
        <a className={`brand${logo ? " with-logo" : ""}`} href={paths.home()} title={appName}>
          <BrandLogo logo={logo} appName={appName} />
        </a>
        <button
          type="button"
          className="icon-button menu-button"
          aria-expanded={menuOpen}
          aria-controls="sidebar-content"
          aria-label={menuOpen ? t("sidebar.closeMenu") : t("sidebar.openMenu")}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">{menuOpen ? "✕" : "☰"}</span>
        </button>
      </div>
      <div id="sidebar-content" className="sidebar-content">
        <SidebarSearch />
        {canManage && (
          <button
            type="button"
            className="button primary block"
            data-requires="adminOrManager"
            onClick={() => setCreating(true)}
          >
            {t("sidebar.newWorkspace")}
          </button>
        )}
        <h2 className="sidebar-heading">{t("sidebar.workspaces")}</h2>
        {error && <p className="form-error" role="alert">{error}</p>}
        {!error && workspaces === null && <p className="muted">{t("sidebar.loading")}</p>}
        {workspaces && workspaces.length === 0 && <p className="muted">{t("sidebar.empty")}</p>}
        {workspaces && workspaces.length > 0 && (
          <ul className="workspace-list">
            {workspaces.map((workspace) => (
              <li key={workspace.id} className={workspace.slug === activeSlug ? "with-threads" : undefined}>
                <a
                  className={`workspace-link${workspace.slug === activeSlug ? " active" : ""}`}
                  href={paths.workspace(workspace.slug)}
                  title={workspace.name}
                  aria-current={workspace.slug === activeSlug ? "page" : undefined}
                >
                  {workspace.name}
                </a>
                {workspace.slug === activeSlug && canSetActive && (
                  <a
                    className="icon-button"
                    href={paths.workspaceSettings(workspace.slug)}
                    aria-label={t("sidebar.workspaceSettings", { name: workspace.name })}
                    title={t("sidebar.workspaceSettings", { name: workspace.name })}
                  >
                    <span aria-hidden="true">⚙</span>
                  </a>
                )}
                {workspace.slug === activeSlug && (
                  <ThreadList
                    workspaceSlug={workspace.slug}
                    workspaceName={workspace.name}
                    state={threads}
                    current={currentThread}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {footerLinks.length > 0 && (
          <ul className="sidebar-links" aria-label={t("appearance.footer.listLabel")}>
            {footerLinks.map((link, index) => (
              <li key={index}>
                <a
                  className="icon-button"
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  title={link.url}
                  aria-label={link.url}
                >
                  <FooterIcon name={link.icon} />
                </a>
              </li>
            ))}
          </ul>
        )}
        {canManage && (
          <div className="sidebar-footer" data-requires="adminOrManager">
            <a className="button secondary block" href={paths.settings("llm-preference")}>
              {t("sidebar.settings")}
            </a>
          </div>
        )}
      </div>
      <NewWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </nav>
  );
}
