import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EmbedView } from "../../../shared/api/embeds.ts";
import { type Workspace, WorkspaceList } from "../../../shared/api/workspaces.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Dialog } from "../../components/Dialog.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { CopyField } from "../admin/CopyField.tsx";
import { act, messageOf } from "../admin/requests.ts";
import { EmbedDialog } from "./EmbedDialog.tsx";
import { EmbedRow } from "./EmbedRow.tsx";
import { embedSnippet } from "./embeds.ts";

/**
 * The embed widgets: the list (workspace, chats, allowed domains, on or off), "New embed" and editing in a
 * dialog, deletion after a confirmation, and the script tag a web site adds.
 */
export function EmbedConfigScreen() {
  const { t } = useTranslation();
  const [embeds, setEmbeds] = useState<EmbedView[] | null>(null);
  // null until read: "no workspaces" is said only once the list says so.
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<EmbedView | "new" | null>(null);
  const [code, setCode] = useState<EmbedView | null>(null);
  const [deleting, setDeleting] = useState<EmbedView | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  // An answer older than a reload after an action must not bring back what the action changed.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const answer = await api<{ embeds: EmbedView[] }>("/embeds");
      if (!current()) return;
      setEmbeds(answer.embeds);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("embeds.loadFailed"));
    }
  }, [t]);

  useEffect(() => {
    void reload();
    api("/workspaces", { schema: WorkspaceList })
      .then((answer) => setWorkspaces(answer.workspaces))
      .catch((caught) => {
        setWorkspaces([]);
        toast.error(t("embeds.workspacesFailed", { error: messageOf(caught) }));
      });
  }, [reload, t]);

  async function toggle(embed: EmbedView, enabled: boolean) {
    setBusy(embed.id);
    try {
      await act(`/embed/update/${embed.id}`, { json: { enabled } }, t("embeds.toggleFailed"));
      toast.success(enabled ? t("embeds.enabled") : t("embeds.disabled"));
      await reload();
    } catch (caught) {
      toast.error(t("embeds.toggleFailedWith", { error: messageOf(caught) }));
    } finally {
      setBusy(null);
    }
  }

  async function remove(embed: EmbedView) {
    setBusy(embed.id);
    try {
      await act(`/embed/${embed.id}`, { method: "DELETE" }, t("embeds.delete.failed"));
      toast.success(t("embeds.delete.done"));
      setDeleting(null);
      await reload();
    } catch (caught) {
      toast.error(t("embeds.delete.failedWith", { error: messageOf(caught) }));
    } finally {
      setBusy(null);
    }
  }

  if (!embeds && !loadError) return <LoadingBlock label={t("embeds.loading")} />;
  const origin = typeof location === "undefined" ? "" : location.origin;

  return (
    <section className="admin-section" aria-labelledby="embeds-heading">
      <div className="section-heading">
        <h2 id="embeds-heading">{t("embeds.heading", { count: embeds?.length ?? 0 })}</h2>
        <div className="row-actions">
          <a className="button secondary" href="/settings/embed-chats">{t("embeds.chatsLink")}</a>
          <button
            type="button"
            className="button primary"
            onClick={() => setEditing("new")}
            disabled={!workspaces || workspaces.length === 0}
          >
            {t("embeds.form.open")}
          </button>
        </div>
      </div>
      <p className="muted">{t("embeds.intro")}</p>
      {workspaces?.length === 0 && embeds && <p className="notice" role="note">{t("embeds.noWorkspaces")}</p>}
      {loadError && (
        <p className="form-error" role="alert">{t("embeds.loadFailedWith", { error: loadError })}</p>
      )}
      {embeds && embeds.length === 0 && <p className="muted">{t("embeds.empty")}</p>}
      {embeds && embeds.length > 0 && (
        <table className="admin-table embeds-table">
          <caption className="visually-hidden">{t("embeds.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("embeds.table.workspace")}</th>
              <th scope="col">{t("embeds.table.chats")}</th>
              <th scope="col">{t("embeds.table.domains")}</th>
              <th scope="col">{t("embeds.table.created")}</th>
              <th scope="col">{t("embeds.table.enabled")}</th>
              <th scope="col">{t("embeds.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {embeds.map((embed) => (
              <EmbedRow
                key={embed.id}
                embed={embed}
                busy={busy === embed.id}
                onToggle={(row, enabled) => void toggle(row, enabled)}
                onEdit={setEditing}
                onCode={setCode}
                onDelete={setDeleting}
              />
            ))}
          </tbody>
        </table>
      )}
      <EmbedDialog
        editing={editing}
        workspaces={workspaces ?? []}
        onClose={() => setEditing(null)}
        onSaved={() => void reload()}
      />
      <Dialog open={code !== null} title={t("embeds.code.title")} onClose={() => setCode(null)}>
        {code && (
          <div className="form">
            <p>{t("embeds.code.explain")}</p>
            <CopyField
              id="embed-snippet"
              label={t("embeds.code.snippet")}
              value={embedSnippet(code.uuid, origin)}
            />
            <pre className="embed-snippet"><code>{embedSnippet(code.uuid, origin)}</code></pre>
            {!code.enabled && <p className="notice warning" role="note">{t("embeds.code.disabled")}</p>}
            <div className="form-actions">
              <button type="button" className="button primary" onClick={() => setCode(null)}>
                {t("embeds.code.done")}
              </button>
            </div>
          </div>
        )}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t("embeds.delete.title")}
        message={t("embeds.delete.confirm", { workspace: deleting?.workspace.name ?? "" })}
        confirmLabel={t("embeds.delete.submit")}
        busy={busy !== null}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
