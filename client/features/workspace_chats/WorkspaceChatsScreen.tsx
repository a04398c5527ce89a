import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ALL_CHATS_ID,
  WORKSPACE_CHATS_PAGE_SIZE,
  type WorkspaceChat,
  WorkspaceChatsPage,
} from "../../../shared/api/workspace_chats.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { act, messageOf } from "../admin/requests.ts";
import { ChatRow, type ShownText } from "./ChatRow.tsx";
import { ExportMenu } from "./ExportMenu.tsx";
import { TextDialog } from "./TextDialog.tsx";
import { offsetFrom } from "./workspace_chats.ts";

/** Keeps the page number in the address (`?offset=`), so a reload or a shared link opens the same page. */
function rememberOffset(offset: number) {
  const url = new URL(globalThis.location.href);
  if (offset > 0) url.searchParams.set("offset", String(offset));
  else url.searchParams.delete("offset");
  globalThis.history.replaceState(null, "", url);
}

/**
 * Every chat held in every workspace (admins only), the newest first, 20 a page: who sent it, where, the
 * prompt and the response (cut, whole on demand), when; deleting one or all after a confirmation, and the
 * export menu.
 */
export function WorkspaceChatsScreen() {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(() => offsetFrom(globalThis.location?.search ?? ""));
  const [page, setPage] = useState<WorkspaceChatsPage | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WorkspaceChat | null>(null);
  const [clearing, setClearing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<ShownText | null>(null);
  // The page asked for last is the one shown, whatever order the answers arrive in.
  const order = useLatest();

  const load = useCallback(async (at: number) => {
    const current = order.start();
    try {
      const answer = await api("/system/workspace-chats", {
        json: { offset: at },
        schema: WorkspaceChatsPage,
      });
      if (!current()) return;
      // A page emptied by deletions (or a stale link past the end) shows the last page that has chats.
      const last = Math.max(0, Math.ceil(answer.totalChats / WORKSPACE_CHATS_PAGE_SIZE) - 1);
      if (answer.chats.length === 0 && at > last) {
        setOffset(last);
        return;
      }
      setPage(answer);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("workspaceChats.loadFailed", { error: messageOf(caught) }));
    }
  }, [t]);

  useEffect(() => {
    rememberOffset(offset);
    void load(offset);
  }, [offset, load]);

  async function remove(chat: WorkspaceChat) {
    setBusy(true);
    try {
      await act(
        `/system/workspace-chats/${chat.id}`,
        { method: "DELETE" },
        t("workspaceChats.delete.refused"),
      );
      toast.success(t("workspaceChats.delete.done"));
      setDeleting(null);
      await load(offset);
    } catch (caught) {
      toast.error(t("workspaceChats.delete.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  async function clearAll() {
    setBusy(true);
    try {
      await act(
        `/system/workspace-chats/${ALL_CHATS_ID}`,
        { method: "DELETE" },
        t("workspaceChats.clear.refused"),
      );
      toast.success(t("workspaceChats.clear.done"));
      setClearing(false);
      if (offset === 0) await load(0);
      else setOffset(0);
    } catch (caught) {
      toast.error(t("workspaceChats.clear.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (!page && !loadError) return <LoadingBlock label={t("workspaceChats.loading")} />;
  const total = page?.totalChats ?? 0;
  const pages = Math.max(1, Math.ceil(total / WORKSPACE_CHATS_PAGE_SIZE));

  return (
    <section className="admin-section" aria-labelledby="workspace-chats-heading">
      <div className="section-heading">
        <h2 id="workspace-chats-heading">{t("workspaceChats.heading", { count: total })}</h2>
        <div className="row-actions">
          <ExportMenu />
          {total > 0 && (
            <button
              type="button"
              className="button danger"
              disabled={busy}
              onClick={() => setClearing(true)}
            >
              {t("workspaceChats.clear.open")}
            </button>
          )}
        </div>
      </div>
      {loadError && (
        <p className="form-error" role="alert">{t("workspaceChats.loadFailed", { error: loadError })}</p>
      )}
      {page && page.chats.length === 0 && <p className="muted">{t("workspaceChats.empty")}</p>}
      {page && page.chats.length > 0 && (
        <table className="admin-table workspace-chats-table">
          <caption className="visually-hidden">{t("workspaceChats.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("workspaceChats.table.id")}</th>
              <th scope="col">{t("workspaceChats.table.by")}</th>
              <th scope="col">{t("workspaceChats.table.workspace")}</th>
              <th scope="col">{t("workspaceChats.table.prompt")}</th>
              <th scope="col">{t("workspaceChats.table.response")}</th>
              <th scope="col">{t("workspaceChats.table.at")}</th>
              <th scope="col">{t("workspaceChats.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {page.chats.map((chat) => (
              <ChatRow
                key={chat.id}
                chat={chat}
                busy={busy && deleting?.id === chat.id}
                onShow={setShown}
                onDelete={setDeleting}
              />
            ))}
          </tbody>
        </table>
      )}
      {(offset > 0 || page?.hasPages) && (
        <nav className="pager" aria-label={t("workspaceChats.paging.label")}>
          <button
            type="button"
            className="button secondary"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - 1))}
          >
            {t("workspaceChats.paging.previous")}
          </button>
          <span className="muted" aria-live="polite">
            {t("workspaceChats.paging.page", { page: offset + 1, pages })}
          </span>
          <button
            type="button"
            className="button secondary"
            disabled={!page?.hasPages}
            onClick={() => setOffset(offset + 1)}
          >
            {t("workspaceChats.paging.next")}
          </button>
        </nav>
      )}
      <TextDialog shown={shown} onClose={() => setShown(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("workspaceChats.delete.title")}
        message={t("workspaceChats.delete.confirm")}
        confirmLabel={t("workspaceChats.delete.submit")}
        busy={busy}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={clearing}
        title={t("workspaceChats.clear.title")}
        message={t("workspaceChats.clear.confirm", { count: total })}
        confirmLabel={t("workspaceChats.clear.submit")}
        busy={busy}
        onConfirm={() => void clearAll()}
        onClose={() => setClearing(false)}
      />
    </section>
  );
}
