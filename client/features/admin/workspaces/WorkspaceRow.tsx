import { useTranslation } from "react-i18next";
import { formatDate } from "../../dates.ts";
import { type AdminWorkspace, memberCount, workspaceLinks } from "./workspaces_admin.ts";

type Props = {
  workspace: AdminWorkspace;
  multiUser: boolean;
  busy: boolean;
  onDelete: (workspace: AdminWorkspace) => void;
};

/**
 * One workspace: its name, a link that opens it, its member count (multi-user mode; the count links to the
 * workspace's members tab, where they are edited), when it was made, and delete. A card on phones (admin.css).
 */
export function WorkspaceRow({ workspace, multiUser, busy, onDelete }: Props) {
  const { t } = useTranslation();
  const links = workspaceLinks(workspace);
  const members = memberCount(workspace, multiUser);
  return (
    <tr>
      <td data-label={t("workspacesAdmin.table.name")}>
        <span className="user-name">{workspace.name}</span>
      </td>
      <td data-label={t("workspacesAdmin.table.link")}>
        <a href={links.open} aria-label={t("workspacesAdmin.open", { name: workspace.name })}>
          /{workspace.slug}
        </a>
      </td>
      {members !== null && (
        <td data-label={t("workspacesAdmin.table.members")}>
          <a
            className="workspace-member-count"
            href={links.members}
            aria-label={t("workspacesAdmin.membersOf", { count: members, name: workspace.name })}
          >
            {t("workspacesAdmin.members", { count: members })}
          </a>
        </td>
      )}
      <td data-label={t("workspacesAdmin.table.created")}>{formatDate(workspace.createdAt)}</td>
      <td data-label={t("workspacesAdmin.table.actions")}>
        <div className="row-actions">
          <button
            type="button"
            className="button danger"
            disabled={busy}
            onClick={() => onDelete(workspace)}
            aria-label={t("workspacesAdmin.delete.label", { name: workspace.name })}
          >
            {t("workspacesAdmin.delete.open")}
          </button>
        </div>
      </td>
    </tr>
  );
}
