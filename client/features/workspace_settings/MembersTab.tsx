import { useTranslation } from "react-i18next";
import { DetailList } from "../../components/DetailList.tsx";
import { MembersPanel } from "./MembersPanel.tsx";

/** The members tab: who may use the workspace; in multi-user mode its members, which can be changed. */
export function MembersTab(
  { workspaceId, multiUserMode }: { workspaceId: number; multiUserMode: boolean | null },
) {
  const { t } = useTranslation();
  const access = {
    label: t("workspaceSettings.members.access"),
    value: multiUserMode === null
      ? t("common.loading")
      : multiUserMode
      ? t("workspaceSettings.members.multiUser")
      : t("workspaceSettings.members.singleUser"),
  };
  const items = multiUserMode
    ? [access, {
      label: t("workspaceSettings.members.list"),
      value: <MembersPanel workspaceId={workspaceId} />,
    }]
    : [access];
  return (
    <section className="card ws-section" aria-label={t("workspaceSettings.tabs.members")}>
      <DetailList items={items} />
    </section>
  );
}
