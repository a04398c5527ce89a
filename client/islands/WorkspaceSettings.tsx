import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { WorkspaceAnswer, type WorkspaceDetail } from "../../shared/api/workspaces.ts";
import { paths, WORKSPACE_SETTINGS_TABS, type WorkspaceSettingsTab } from "../../shared/routes.ts";
import { DetailList } from "../components/DetailList.tsx";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { fetchSetup } from "../features/settings/setup.ts";
import { tabDetails } from "../features/workspace_settings/tabs.tsx";
import { api, ApiError } from "../lib/api.ts";

type Props = { slug: string; tab: string };

/** /workspace/{slug}/settings/{tab}: the five tabs of spec 01 §2.7 with the workspace's current values. */
export default function WorkspaceSettings({ slug, tab }: Props) {
  const { t } = useTranslation();
  const current = (WORKSPACE_SETTINGS_TABS as readonly string[]).includes(tab)
    ? tab as WorkspaceSettingsTab
    : "general-appearance";
  const [workspace, setWorkspace] = useState<WorkspaceDetail | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [multiUserMode, setMultiUserMode] = useState<boolean | null>(null);

  useEffect(() => {
    api(`/workspace/${encodeURIComponent(slug)}`, { schema: WorkspaceAnswer })
      .then((answer) => answer.workspace ? setWorkspace(answer.workspace) : setNotFound(true))
      .catch((caught: Error) => {
        if (caught instanceof ApiError && caught.status === 404) setNotFound(true);
        else setError(caught.message);
      });
    fetchSetup().then((setup) => setMultiUserMode(setup.MultiUserMode)).catch(() => setMultiUserMode(null));
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
      <section className="card tab-panel" aria-label={t(`workspaceSettings.tabs.${current}`)}>
        {error && <p className="form-error" role="alert">{t("workspaceSettings.loadFailed", { error })}</p>}
        {!error && !workspace && <LoadingBlock label={t("workspaceSettings.loading")} />}
        {workspace && <DetailList items={tabDetails(current, workspace, multiUserMode, t)} />}
      </section>
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
