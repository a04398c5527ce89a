import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Invite, NewInviteAnswer } from "../../../../shared/api/admin.ts";
import type { Workspace } from "../../../../shared/api/workspaces.ts";
import { CheckboxList } from "../../../components/CheckboxList.tsx";
import { Dialog } from "../../../components/Dialog.tsx";
import { api, ApiError } from "../../../lib/api.ts";
import { toast } from "../../../lib/toast.ts";
import { CopyField } from "../CopyField.tsx";
import { messageOf } from "../requests.ts";
import { inviteUrl } from "./invite_url.ts";

type Props = {
  open: boolean;
  workspaces: readonly Workspace[];
  onClose: () => void;
  onCreated: (invite: Invite) => void;
};

/** "Create invite": the workspaces the new account joins, then the link to hand over. */
export function CreateInviteDialog({ open, workspaces, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t("invites.create.title")} onClose={onClose}>
      <CreateInviteForm workspaces={workspaces} onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

function CreateInviteForm({ workspaces, onClose, onCreated }: Omit<Props, "open">) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [invite, setInvite] = useState<Invite | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const answer = await api("/admin/invite/new", {
        json: { workspaceIds: workspaces.map((workspace) => workspace.id).filter((id) => chosen.has(id)) },
        schema: NewInviteAnswer,
      });
      if (!answer.invite) throw new ApiError(answer.error ?? t("invites.create.refused"), 200, answer);
      setInvite(answer.invite);
      toast.success(t("invites.create.done"));
      onCreated(answer.invite);
    } catch (caught) {
      toast.error(t("invites.create.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (invite) {
    return (
      <div className="form">
        <CopyField id="invite-link" label={t("invites.create.link")} value={inviteUrl(invite.code)} />
        <p className="field-hint">{t("invites.create.linkHint")}</p>
        <div className="form-actions">
          <button type="button" className="button primary" onClick={onClose}>{t("common.close")}</button>
        </div>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={submit}>
      <CheckboxList
        legend={t("invites.create.workspaces")}
        hint={t("invites.create.workspacesHint")}
        empty={t("invites.create.noWorkspaces")}
        items={workspaces}
        idOf={(workspace) => workspace.id}
        labelOf={(workspace) => workspace.name}
        chosen={chosen}
        onChosenChange={setChosen}
        disabled={busy}
      />
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("invites.create.busy") : t("invites.create.submit")}
        </button>
      </div>
    </form>
  );
}
