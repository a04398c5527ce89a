import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { type WorkspaceMember, WorkspaceMembers } from "../../../shared/api/admin.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";
import { MembersChecklist } from "./MembersChecklist.tsx";

type Member = z.infer<typeof WorkspaceMember>;

/** Multi-user mode: the workspace's members, and a checklist of every account to change them. */
export function MembersPanel({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);

  const reload = useCallback(() => {
    api(`/admin/workspaces/${workspaceId}/users`, { schema: WorkspaceMembers })
      .then((answer) => {
        setMembers(answer.users);
        setError(null);
      })
      .catch((caught) => {
        setError(messageOf(caught));
        toast.error(t("workspaceSettings.members.loadFailed", { error: messageOf(caught) }));
      });
  }, [workspaceId, t]);
  useEffect(reload, [reload]);
  const close = useCallback(() => setEditing(false), []);

  if (error) {
    return <p className="form-error" role="alert">{t("workspaceSettings.members.loadFailed", { error })}</p>;
  }
  if (!members) return <span className="muted">{t("common.loading")}</span>;
  return (
    <div className="members">
      {members.length === 0
        ? <p className="muted">{t("workspaceSettings.members.none")}</p>
        : (
          <ul className="member-list">
            {members.map((member) => (
              <li key={member.userId}>
                <span className="user-name">{member.username ?? `#${member.userId}`}</span>
                <span className="badge">{t(`users.roles.${member.role}`)}</span>
              </li>
            ))}
          </ul>
        )}
      <div className="form-actions start">
        <button type="button" className="button secondary" onClick={() => setEditing(true)}>
          {t("workspaceSettings.members.edit")}
        </button>
      </div>
      <Dialog open={editing} title={t("workspaceSettings.members.editTitle")} onClose={close}>
        <MembersChecklist
          workspaceId={workspaceId}
          memberIds={members.map((member) => member.userId)}
          onClose={close}
          onSaved={() => {
            close();
            reload();
          }}
        />
      </Dialog>
    </div>
  );
}
