import { useTranslation } from "react-i18next";
import { DetailList } from "../../components/DetailList.tsx";
import { MembersPanel } from "./MembersPanel.tsx";

/**
 * The members tab (the workspace's owners): who may use the workspace; in multi-user mode its members with
 * their roles and its visibility, which can be changed.
 */
export function MembersTab(
  { slug, multiUserMode }: { slug: string; multiUserMode: boolean | null },
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
      label: t("workspaceRoles.heading"),
      value: <MembersPanel slug={slug} />,
    }]
    : [access];
  return (
    <section className="card ws-section" aria-label={t("workspaceSettings.tabs.members")}>
      <DetailList items={items} />
    </section>
  );
}
