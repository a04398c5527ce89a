import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Workspace, WorkspaceList } from "../../shared/api/workspaces.ts";
import { paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { NewWorkspaceDialog } from "../features/new_workspace.tsx";
import { fetchSetup } from "../features/settings/setup.ts";
import { api } from "../lib/api.ts";
import { useCanManage } from "../features/auth/use_can_manage.ts";
import { type WelcomeMessage, WelcomeMessagesAnswer } from "../../shared/api/appearance.ts";

type Props = { appName: string };

/** The most recently updated workspaces first (ties: the newer workspace first). */
export function recentFirst<T extends Pick<Workspace, "id" | "lastUpdatedAt">>(
  workspaces: readonly T[],
): T[] {
  const time = (value: string) => Date.parse(value) || 0;
  return workspaces.toSorted((a, b) => time(b.lastUpdatedAt) - time(a.lastUpdatedAt) || b.id - a.id);
}

/** Home: a welcome, the workspaces (most recent first), and a way to create one. */
export default function Home({ appName }: Props) {
  const { t } = useTranslation();
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [needsLlm, setNeedsLlm] = useState(false);
  const [creating, setCreating] = useState(false);
  const [welcome, setWelcome] = useState<WelcomeMessage[]>([]);
  const canManage = useCanManage();

  useEffect(() => {
    api("/workspaces", { schema: WorkspaceList })
      .then((answer) => setWorkspaces(recentFirst(answer.workspaces)))
      .catch((caught: Error) => setError(caught.message));
    fetchSetup()
      .then((setup) => setNeedsLlm(setup.LLMProvider === null))
      .catch(() => setNeedsLlm(false));
    // The admin's welcome messages (Settings → Appearance); none is the usual case, and a failure shows none.
    api("/system/welcome-messages", { schema: WelcomeMessagesAnswer })
      .then((answer) => setWelcome(answer.welcomeMessages))
      .catch(() => setWelcome([]));
  }, []);

  const empty = workspaces !== null && workspaces.length === 0;

  return (
    <div className="page home">
      <header className="home-header">
        <h1>{t("home.welcome", { appName })}</h1>
        <p className="muted">{t("home.intro")}</p>
      </header>

      {welcome.length > 0 && (
        <section className="welcome-bubbles" aria-label={t("appearance.welcome.homeLabel")}>
          {welcome.flatMap((message, index) => [
            message.user && <p key={`u${index}`} className="welcome-bubble user">{message.user}</p>,
            message.response && <p key={`r${index}`} className="welcome-bubble">{message.response}</p>,
          ]).filter(Boolean)}
        </section>
      )}

      {needsLlm && (
        <p className="notice warning" role="status">
          {t("home.noLlm")}{" "}
          {canManage && <a href={paths.settings("llm-preference")}>{t("home.chooseLlm")}</a>}
        </p>
      )}

      <section className="home-section" aria-labelledby="home-workspaces">
        <div className="section-heading">
          <h2 id="home-workspaces">{t("home.workspaces")}</h2>
          {!empty && canManage && (
            <button
              type="button"
              className="button secondary"
              onClick={() => setCreating(true)}
            >
              {t("home.newWorkspace")}
            </button>
          )}
        </div>
        {error && <p className="form-error" role="alert">{t("home.loadFailed", { error })}</p>}
        {!error && workspaces === null && <LoadingBlock label={t("home.loading")} />}
        {empty && (
          <div className="card empty-state">
            <p>{canManage ? t("home.empty") : t("home.emptyMember")}</p>
            {canManage && (
              <button type="button" className="button primary" onClick={() => setCreating(true)}>
                {t("home.createFirst")}
              </button>
            )}
          </div>
        )}
        {workspaces && workspaces.length > 0 && (
          <ul className="workspace-cards">
            {workspaces.map((workspace) => (
              <li key={workspace.id}>
                <a className="card workspace-card" href={paths.workspace(workspace.slug)}>
                  <span className="workspace-card-name">{workspace.name}</span>
                  <span className="muted small">/{workspace.slug}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <NewWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
