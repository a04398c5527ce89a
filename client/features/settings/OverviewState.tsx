import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { WorkspaceList } from "../../../shared/api/workspaces.ts";
import type { SettingsPage } from "../../../shared/routes.ts";
import { type Detail, DetailList } from "../../components/DetailList.tsx";
import { api } from "../../lib/api.ts";
import { PrivacySummary } from "./PrivacySummary.tsx";
import type { SetupResults } from "./setup.ts";

/** The number of workspaces on the instance, from the workspace list. */
function WorkspaceCount() {
  const { t } = useTranslation();
  const [count, setCount] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api("/workspaces", { schema: WorkspaceList })
      .then((answer) => setCount(answer.workspaces.length))
      .catch((caught: Error) => setError(caught.message));
  }, []);
  if (error) return <span className="form-error">{error}</span>;
  return <>{count === null ? t("common.loading") : t("settings.state.workspaceCount", { count })}</>;
}

/** The instance's current state for an area, where the instance keys tell it. */
export function OverviewState({ page, setup }: { page: SettingsPage; setup: SetupResults }) {
  const { t } = useTranslation();
  let items: Detail[] = [];
  switch (page) {
    case "appearance":
      items = [{
        label: t("settings.state.appName"),
        value: setup.CustomAppName || t("settings.state.appNameDefault"),
      }];
      break;
    case "workspaces":
    case "workspace-chats":
      items = [{ label: t("settings.state.workspaces"), value: <WorkspaceCount /> }];
      break;
    case "privacy":
      return <PrivacySummary setup={setup} />;
  }
  if (items.length === 0) return null;
  return (
    <section className="card" aria-labelledby="overview-state">
      <h2 id="overview-state">{t("settings.state.heading")}</h2>
      <DetailList items={items} />
    </section>
  );
}
