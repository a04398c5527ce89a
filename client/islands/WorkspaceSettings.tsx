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

type Props = { slug: string; tab: string };

/**
 * /workspace/{slug}/settings/{tab}: the five tabs (shared/routes.ts), each a form that saves through
 * `POST /workspace/:slug/update` (the page guard lets only admins and managers in).
 */
export default function WorkspaceSettings({ slug, tab }: Props) {
  const { t } = useTranslation();
  const current = (WORKSPACE_SETTINGS_TABS as readonly string[]).includes(tab)
    ? tab as WorkspaceSettingsTab
    : "general-appearance";
  const [workspace, setWorkspace] = useState<WorkspaceDetail | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [setup, setSetup] = useState<SetupResults | null | undefined>(undefined);
  // Only an admin's setup lists the provider settings; otherwise every provider stays offered.
  const configured = setup && "LockedSettings" in setup ? configuredProviders(setup) : null;

  useEffect(() => {
    api(`/workspace/${encodeURIComponent(slug)}`, { schema: WorkspaceAnswer })
      .then((answer) => answer.workspace ? setWorkspace(answer.workspace) : setNotFound(true))
      .catch((caught: Error) => {
        if (caught instanceof ApiError && caught.status === 404) setNotFound(true);
        else setError(caught.message);
      });
    fetchSetup().then(setSetup).catch(() => setSetup(null));
  }, [slug]);

  const save = useCallback(async (changes: WorkspaceChanges): Promise<Workspace | null> => {
    const row = await updateWorkspace(slug, changes);
    if (row) setWorkspace((detail) => (detail ? { ...detail, ...row } : detail));
    return row;
  }, [slug]);

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
        {WORKSPACE_SETTINGS_TABS.map((name) => (
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
      <div className="ws-panel" role="region" aria-label={t(`workspaceSettings.tabs.${current}`)}>
        {error && <p className="form-error" role="alert">{t("workspaceSettings.loadFailed", { error })}</p>}
        {!error && !workspace && <LoadingBlock label={t("workspaceSettings.loading")} />}
        {workspace && current === "general-appearance" && <GeneralTab workspace={workspace} save={save} />}
        {workspace && current === "chat-settings" && (
          <ChatTab workspace={workspace} save={save} configuredProviders={configured} />
        )}
        {workspace && current === "vector-database" && (
          <VectorTab
            workspace={workspace}
            save={save}
            vectorDb={setup === undefined ? undefined : setup?.VectorDB ?? null}
            onReset={() => setWorkspace((detail) => (detail ? { ...detail, documents: [] } : detail))}
          />
        )}
        {workspace && current === "members" && (
          <MembersTab
            workspaceId={workspace.id}
            multiUserMode={setup === undefined || setup === null ? null : setup.MultiUserMode}
          />
        )}
        {workspace && current === "agent-config" && (
          <AgentTab workspace={workspace} save={save} configuredProviders={configured} />
        )}
      </div>
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
