import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Workspace, WorkspaceAnswer, type WorkspaceDetail } from "../../shared/api/workspaces.ts";
import { paths, WORKSPACE_SETTINGS_TABS, type WorkspaceSettingsTab } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { fetchSetup, type SetupResults } from "../features/settings/setup.ts";
import { configuredProviders } from "../features/workspace_settings/tab_values.ts";
import { AgentTab } from "../features/workspace_settings/AgentTab.tsx";
import { updateWorkspace, type WorkspaceChanges } from "../features/workspace_settings/api.ts";
import { ChatTab } from "../features/workspace_settings/ChatTab.tsx";
import { GeneralTab } from "../features/workspace_settings/GeneralTab.tsx";
import { MembersTab } from "../features/workspace_settings/MembersTab.tsx";
import { VectorTab } from "../features/workspace_settings/VectorTab.tsx";
import { api, ApiError } from "../lib/api.ts";
import {
  tabsFor,
  useWorkspaceRole,
  WorkspaceRoleContext,
} from "../features/workspace_roles/use_workspace_role.ts";

type Props = { slug: string; tab: string };

/**
 * /workspace/{slug}/settings/{tab}: the five tabs (shared/routes.ts), each a form that saves through
 * `POST /workspace/:slug/update`: for the workspace's editors and owners (and admins and managers), by its role.
 */
export default function WorkspaceSettings({ slug, tab }: Props) {
  const { t } = useTranslation();
  // The visitor's role here decides the tabs: an editor all but the members, an owner all, a viewer none.
  const role = useWorkspaceRole(slug);
  const tabs = tabsFor(WORKSPACE_SETTINGS_TABS, role, "members");
  const asked = (WORKSPACE_SETTINGS_TABS as readonly string[]).includes(tab)
    ? tab as WorkspaceSettingsTab
    : "general-appearance";
  const current = tabs.includes(asked) ? asked : tabs[0] ?? asked;
  const [workspace, setWorkspace] = useState<WorkspaceDetail | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [setup, setSetup] = useState<SetupResults | null | undefined>(undefined);
  const [setupError, setSetupError] = useState<string | null>(null);
  // Only an admin's setup lists the provider settings; otherwise every provider stays offered.
  const configured = setup && "LockedSettings" in setup ? configuredProviders(setup) : null;

  useEffect(() => {
    api(`/workspace/${encodeURIComponent(slug)}`, { schema: WorkspaceAnswer })
      .then((answer) => answer.workspace ? setWorkspace(answer.workspace) : setNotFound(true))
      .catch((caught: Error) => {
        if (caught instanceof ApiError && caught.status === 404) setNotFound(true);
        else setError(caught.message);
      });
    fetchSetup().then(setSetup).catch((caught: Error) => {
      setSetup(null);
      setSetupError(caught.message);
    });
  }, [slug]);

  const save = useCallback(async (changes: WorkspaceChanges): Promise<Workspace | null> => {
    const row = await updateWorkspace(slug, changes);
    if (row) setWorkspace((detail) => (detail ? { ...detail, ...row } : detail));
    return row;
  }, [slug]);

  if (role === "viewer") {
    return (
      <div className="page-message" role="alert">
        <h1>{t("workspaceRoles.viewerOnlyTitle")}</h1>
        <p>{t("workspaceRoles.viewerOnly")}</p>
        <a className="button primary" href={paths.workspace(slug)}>{t("workspaceRoles.backToChat")}</a>
      </div>
    );
  }

  if (notFound) {
    return (
      <div className="page-message" role="alert">
        <h1>{t("workspaceSettings.notFoundTitle")}</h1>
        <p>{t("workspaceSettings.notFound", { slug })}</p>
        <a className="button primary" href={paths.home()}>{t("common.backHome")}</a>
      </div>
    );
  }

  return (
    <div className="page workspace-settings">
      <header className="settings-header">
        <p className="muted small">{t("workspaceSettings.heading")}</p>
        <h1>{workspace ? workspace.name : t("workspaceSettings.title")}</h1>
      </header>
      <nav className="tabs" aria-label={t("workspaceSettings.tabsLabel")}>
        {tabs.map((name) => (
          <a
            key={name}
            className={`tab${name === current ? " active" : ""}`}
            href={paths.workspaceSettings(slug, name)}
            aria-current={name === current ? "page" : undefined}
          >
            {t(`workspaceSettings.tabs.${name}`)}
          </a>
        ))}
      </nav>
      <WorkspaceRoleContext.Provider value={role}>
        <div className="ws-panel" role="region" aria-label={t(`workspaceSettings.tabs.${current}`)}>
          {error && <p className="form-error" role="alert">{t("workspaceSettings.loadFailed", { error })}</p>}
          {!error && (!workspace || role === null) && <LoadingBlock label={t("workspaceSettings.loading")} />}
          {workspace && role !== null && current === "general-appearance" && (
            <GeneralTab workspace={workspace} save={save} />
          )}
          {workspace && role !== null && current === "chat-settings" && (
            <ChatTab workspace={workspace} save={save} configuredProviders={configured} />
          )}
          {workspace && role !== null && current === "vector-database" && (
            <VectorTab
              workspace={workspace}
              save={save}
              vectorDb={setup === undefined ? undefined : setup?.VectorDB ?? null}
              setupError={setupError}
              onReset={() => setWorkspace((detail) => (detail ? { ...detail, documents: [] } : detail))}
            />
          )}
          {workspace && role !== null && current === "members" && (
            <MembersTab
              slug={workspace.slug}
              multiUserMode={setup === undefined || setup === null ? null : setup.MultiUserMode}
            />
          )}
          {workspace && role !== null && current === "agent-config" && (
            <AgentTab workspace={workspace} save={save} configuredProviders={configured} />
          )}
        </div>
      </WorkspaceRoleContext.Provider>
      {workspace && (
        <p className="muted small">
          <a href={paths.workspace(workspace.slug)}>
            {t("workspaceSettings.backToChat", { name: workspace.name })}
          </a>
        </p>
      )}
    </div>
  );
}
