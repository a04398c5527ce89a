import { useTranslation } from "react-i18next";
import type { Invite } from "../../../../shared/api/admin.ts";
import { toast } from "../../../lib/toast.ts";
import { formatDate } from "../../dates.ts";
import { copyText } from "../CopyField.tsx";
import { inviteUrl } from "./invite_url.ts";

type Props = {
  invite: Invite;
  /** Workspace names by id, to name the workspaces an invite joins. */
  names: ReadonlyMap<number, string>;
  /** False while the server refuses invitation links (SIMPLE_SSO_NO_LOGIN): no link to copy then. */
  linkWorks: boolean;
  busy: boolean;
  onDeactivate: (invite: Invite) => void;
};

/** One invitation: a table row on wide screens, a card on phones (admin.css). */
export function InviteRow({ invite, names, linkWorks, busy, onDeactivate }: Props) {
  const { t } = useTranslation();
  const pending = invite.status === "pending";
  const workspaces = invite.workspaceIds.map((id) =>
    names.get(id) ?? t("invites.table.unknownWorkspace", { id })
  );

  async function copy() {
    if (await copyText(inviteUrl(invite.code))) toast.success(t("users.copy.done"));
    else toast.error(t("users.copy.failed"));
  }

  return (
    <tr className={pending ? undefined : "inactive"}>
      <td data-label={t("invites.table.code")}>
        <code className="invite-code">{invite.code}</code>
      </td>
      <td data-label={t("invites.table.status")}>
        <span className={`status-badge ${pending ? "on" : "off"}`}>
          {t(`invites.status.${invite.status}`)}
        </span>
      </td>
      <td data-label={t("invites.table.workspaces")}>
        {workspaces.length > 0
          ? workspaces.join(", ")
          : <span className="muted">{t("invites.table.none")}</span>}
      </td>
      <td data-label={t("invites.table.created")}>{formatDate(invite.createdAt)}</td>
      <td data-label={t("invites.table.actions")}>
        {pending && (
          <div className="row-actions">
            {linkWorks && (
              <button type="button" className="button secondary" onClick={copy}>
                {t("invites.actions.copy")}
              </button>
            )}
            <button
              type="button"
              className="button danger"
              disabled={busy}
              onClick={() => onDeactivate(invite)}
            >
              {t("invites.actions.deactivate")}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
