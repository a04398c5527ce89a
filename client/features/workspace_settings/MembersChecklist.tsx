import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../../../shared/api/auth.ts";
import { UserList } from "../../../shared/api/admin.ts";
import { CheckboxList } from "../../components/CheckboxList.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { act, messageOf } from "../admin/requests.ts";

type Props = { workspaceId: number; memberIds: readonly number[]; onSaved: () => void; onClose: () => void };

/** Every account with a checkbox; saving replaces the workspace's member list. */
export function MembersChecklist({ workspaceId, memberIds, onSaved, onClose }: Props) {
  const { t } = useTranslation();
  const [users, setUsers] = useState<User[] | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set(memberIds));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api("/admin/users", { schema: UserList })
      .then((answer) => setUsers(answer.users))
      .catch((caught) => {
        toast.error(t("workspaceSettings.members.usersFailed", { error: messageOf(caught) }));
        onClose();
      });
  }, [t, onClose]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !users) return;
    setBusy(true);
    try {
      const userIds = users.map((user) => user.id).filter((id) => chosen.has(id));
      await act(
        `/admin/workspaces/${workspaceId}/update-users`,
        { json: { userIds } },
        t("workspaceSettings.members.refused"),
      );
      toast.success(t("workspaceSettings.members.saved"));
      onSaved();
    } catch (caught) {
      toast.error(t("workspaceSettings.members.saveFailed", { error: messageOf(caught) }));
      setBusy(false);
    }
  }

  if (!users) return <LoadingBlock label={t("workspaceSettings.members.loadingUsers")} />;
  return (
    <form className="form" onSubmit={submit}>
      <CheckboxList
        legend={t("workspaceSettings.members.choose")}
        hint={t("workspaceSettings.members.chooseHint")}
        items={users}
        idOf={(user) => user.id}
        labelOf={(user) => user.username ?? `#${user.id}`}
        badgeOf={(user) => t(`users.roles.${user.role}`)}
        chosen={chosen}
        onChosenChange={setChosen}
        disabled={busy}
      />
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("common.saving") : t("common.save")}
        </button>
      </div>
    </form>
  );
}
