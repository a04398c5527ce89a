import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Invite, InviteList } from "../../../../shared/api/admin.ts";
import { type Workspace, WorkspaceList } from "../../../../shared/api/workspaces.ts";
import { LoadingBlock } from "../../../components/LoadingBlock.tsx";
import { api } from "../../../lib/api.ts";
import { useLatest } from "../../../lib/latest.ts";
import { toast } from "../../../lib/toast.ts";
import { ConfirmDialog } from "../../../components/ConfirmDialog.tsx";
import { act, messageOf } from "../requests.ts";
import { CreateInviteDialog } from "./CreateInviteDialog.tsx";
import { InviteRow } from "./InviteRow.tsx";

/**
 * The invitations of a multi-user instance: create one with its workspaces, copy its link, deactivate it.
 * `invitesOff`: the server refuses to create or accept invitations (SIMPLE_SSO_NO_LOGIN), so neither is
 * offered; old invitations can still be deactivated.
 */
export function InvitesScreen({ invitesOff }: { invitesOff: boolean }) {
  const { t } = useTranslation();
  const [invites, setInvites] = useState<Invite[] | null>(null);
  // null until read: an invitation made before would offer no workspace to join, as if there were none.
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deactivating, setDeactivating] = useState<Invite | null>(null);
  const [busy, setBusy] = useState(false);
  // An answer older than a reload after an action must not bring back what the action changed.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const answer = await api("/admin/invites", { schema: InviteList });
      if (!current()) return;
      setInvites(answer.invites);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("invites.loadFailed", { error: messageOf(caught) }));
    }
  }, [t]);

  useEffect(() => {
    void reload();
    api("/workspaces", { schema: WorkspaceList })
      .then((answer) => setWorkspaces(answer.workspaces))
      .catch((caught) => {
        setWorkspaces([]);
        toast.error(t("invites.workspacesFailed", { error: messageOf(caught) }));
      });
  }, [reload, t]);

  const names = useMemo(
    () => new Map((workspaces ?? []).map((workspace) => [workspace.id, workspace.name])),
    [workspaces],
  );

  async function deactivate(invite: Invite) {
    setBusy(true);
    try {
      await act(`/admin/invite/${invite.id}`, { method: "DELETE" }, t("invites.deactivate.refused"));
      toast.success(t("invites.deactivate.done"));
      setDeactivating(null);
      await reload();
    } catch (caught) {
      toast.error(t("invites.deactivate.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (!invites && !loadError) return <LoadingBlock label={t("invites.loading")} />;

  return (
    <section className="admin-section" aria-labelledby="invites-heading">
      <div className="section-heading">
        <h2 id="invites-heading">{t("invites.heading", { count: invites?.length ?? 0 })}</h2>
        {!invitesOff && (
          <button
            type="button"
            className="button primary"
            onClick={() => setCreating(true)}
            disabled={workspaces === null}
          >
            {t("invites.create.open")}
          </button>
        )}
      </div>
      {invitesOff && <p className="notice" role="note">{t("invites.ssoOnly")}</p>}
      {loadError && <p className="form-error" role="alert">{t("invites.loadFailed", { error: loadError })}
      </p>}
      {invites && invites.length === 0 && !invitesOff && <p className="muted">{t("invites.empty")}</p>}
      {invites && invites.length > 0 && (
        <table className="admin-table">
          <caption className="visually-hidden">{t("invites.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("invites.table.code")}</th>
              <th scope="col">{t("invites.table.status")}</th>
              <th scope="col">{t("invites.table.workspaces")}</th>
              <th scope="col">{t("invites.table.created")}</th>
              <th scope="col">{t("invites.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <InviteRow
                key={invite.id}
                invite={invite}
                names={names}
                linkWorks={!invitesOff}
                busy={busy && deactivating?.id === invite.id}
                onDeactivate={setDeactivating}
              />
            ))}
          </tbody>
        </table>
      )}
      <CreateInviteDialog
        open={creating}
        workspaces={workspaces ?? []}
        onClose={() => setCreating(false)}
        onCreated={() => void reload()}
      />
      <ConfirmDialog
        open={deactivating !== null}
        title={t("invites.deactivate.title")}
        message={t("invites.deactivate.confirm")}
        confirmLabel={t("invites.deactivate.submit")}
        busy={busy}
        onConfirm={() => deactivating && void deactivate(deactivating)}
        onClose={() => setDeactivating(null)}
      />
    </section>
  );
}
