import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog.tsx";
import { LoadingBlock } from "../../../components/LoadingBlock.tsx";
import { api } from "../../../lib/api.ts";
import { useLatest } from "../../../lib/latest.ts";
import { toast } from "../../../lib/toast.ts";
import { act, messageOf } from "../requests.ts";
import { NewWorkspaceDialog } from "./NewWorkspaceDialog.tsx";
import { WorkspaceRow } from "./WorkspaceRow.tsx";
import { type AdminWorkspace, AdminWorkspaceList, without, workspaceCalls } from "./workspaces_admin.ts";

/**
 * Every workspace of the instance (admins): name, link, members (multi-user mode), created; "New workspace";
 * deletion after a confirmation that says what goes with it.
 */
export function WorkspacesScreen(
  { multiUser, deletionProtection = false }: { multiUser: boolean; deletionProtection?: boolean },
) {
  const { t } = useTranslation();
  const calls = useMemo(() => workspaceCalls(multiUser), [multiUser]);
  const [workspaces, setWorkspaces] = useState<AdminWorkspace[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AdminWorkspace | null>(null);
  const [busy, setBusy] = useState(false);
  // An answer older than a reload after an action must not bring back what the action changed.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const answer = await api(calls.list, { schema: AdminWorkspaceList });
      if (!current()) return;
      setWorkspaces(answer.workspaces);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("workspacesAdmin.loadFailed"));
    }
  }, [calls, t]);

  useEffect(() => void reload(), [reload]);

  async function remove(workspace: AdminWorkspace) {
    setBusy(true);
    try {
      // With deletion protection on, the server asks for the name typed in the dialog.
      const path = deletionProtection
        ? `${calls.remove(workspace)}?confirm=${encodeURIComponent(workspace.name)}`
        : calls.remove(workspace);
      await act(path, { method: "DELETE" }, t("workspacesAdmin.delete.refused"));
      setWorkspaces((current) => current && without(current, workspace.id));
      toast.success(t("workspacesAdmin.delete.done", { name: workspace.name }));
      setDeleting(null);
      await reload();
    } catch (caught) {
      toast.error(t("workspacesAdmin.delete.failed", { name: workspace.name, error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (!workspaces && !loadError) return <LoadingBlock label={t("workspacesAdmin.loading")} />;

  return (
    <section className="admin-section" aria-labelledby="workspaces-heading">
      <div className="section-heading">
        <h2 id="workspaces-heading">{t("workspacesAdmin.heading", { count: workspaces?.length ?? 0 })}</h2>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          {t("workspacesAdmin.create.open")}
        </button>
      </div>
      {!multiUser && <p className="muted">{t("workspacesAdmin.singleUser")}</p>}
      {loadError && (
        <p className="form-error" role="alert">{t("workspacesAdmin.loadFailedWith", { error: loadError })}</p>
      )}
      {workspaces && workspaces.length === 0 && <p className="muted">{t("workspacesAdmin.empty")}</p>}
      {workspaces && workspaces.length > 0 && (
        <table className="admin-table workspaces-table">
          <caption className="visually-hidden">{t("workspacesAdmin.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("workspacesAdmin.table.name")}</th>
              <th scope="col">{t("workspacesAdmin.table.link")}</th>
              {multiUser && <th scope="col">{t("workspacesAdmin.table.members")}</th>}
              <th scope="col">{t("workspacesAdmin.table.created")}</th>
              <th scope="col">{t("workspacesAdmin.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {workspaces.map((workspace) => (
              <WorkspaceRow
                key={workspace.id}
                workspace={workspace}
                multiUser={multiUser}
                busy={busy && deleting?.id === workspace.id}
                onDelete={setDeleting}
              />
            ))}
          </tbody>
        </table>
      )}
      <NewWorkspaceDialog
        open={creating}
        path={calls.create}
        multiUser={multiUser}
        onClose={() => setCreating(false)}
        onCreated={() => void reload()}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t("workspacesAdmin.delete.title")}
        message={t("workspacesAdmin.delete.confirm", { name: deleting?.name ?? "" })}
        confirmLabel={t("workspacesAdmin.delete.submit")}
        busy={busy}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
        typeToConfirm={deletionProtection && deleting
          ? {
            label: t("workspaceSettings.delete.typeName", { name: deleting.name }),
            expected: deleting.name,
          }
          : undefined}
      />
    </section>
  );
}
