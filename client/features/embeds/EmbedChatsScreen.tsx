import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EmbedChatsPage, EmbedChatView } from "../../../shared/api/embeds.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api, apiBlob } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { act, messageOf } from "../admin/requests.ts";
import { formatDate } from "../dates.ts";
import { answerText, connectionOf, EMBED_EXPORT_TYPES, embedExportPath } from "./embeds.ts";

const PAGE_SIZE = 20;
const EXTENSIONS: Record<(typeof EMBED_EXPORT_TYPES)[number], string> = {
  csv: "csv",
  json: "json",
  jsonl: "jsonl",
  jsonAlpaca: "json",
};

/** The chats visitors had through the embed widgets: paged, newest first, with delete and export. */
export function EmbedChatsScreen() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [data, setData] = useState<EmbedChatsPage | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<EmbedChatView | null>(null);
  const [busy, setBusy] = useState(false);
  const [exportType, setExportType] = useState<(typeof EMBED_EXPORT_TYPES)[number]>("csv");
  // The page asked for last is the one shown, whatever order the answers arrive in.
  const order = useLatest();

  const load = useCallback(async (which: number) => {
    const current = order.start();
    try {
      const answer = await api<EmbedChatsPage>("/embed/chats", { json: { offset: which, limit: PAGE_SIZE } });
      if (!current()) return;
      setData(answer);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("embeds.chats.loadFailed"));
    }
  }, [t]);

  useEffect(() => {
    void load(page);
  }, [load, page]);

  async function remove(chat: EmbedChatView) {
    setBusy(true);
    try {
      await act(`/embed/chats/${chat.id}`, { method: "DELETE" }, t("embeds.chats.delete.failed"));
      toast.success(t("embeds.chats.delete.done"));
      setDeleting(null);
      await load(page);
    } catch (caught) {
      toast.error(t("embeds.chats.delete.failedWith", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  async function download() {
    setBusy(true);
    try {
      const blob = await apiBlob(embedExportPath(exportType));
      const url = URL.createObjectURL(blob ?? new Blob([]));
      const link = Object.assign(document.createElement("a"), {
        href: url,
        download: `embed-chats.${EXTENSIONS[exportType]}`,
      });
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(t("embeds.chats.export.done"));
    } catch (caught) {
      toast.error(t("embeds.chats.export.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (!data && !loadError) return <LoadingBlock label={t("embeds.chats.loading")} />;

  return (
    <section className="admin-section" aria-labelledby="embed-chats-heading">
      <div className="section-heading">
        <h2 id="embed-chats-heading">{t("embeds.chats.heading", { count: data?.totalChats ?? 0 })}</h2>
        <div className="row-actions">
          <label className="visually-hidden" htmlFor="embed-chats-export-type">
            {t("embeds.chats.export.type")}
          </label>
          <select
            id="embed-chats-export-type"
            className="input"
            value={exportType}
            onChange={(event) => setExportType(event.target.value as typeof exportType)}
          >
            {EMBED_EXPORT_TYPES.map((type) => (
              <option key={type} value={type}>{t(`embeds.chats.export.types.${type}`)}</option>
            ))}
          </select>
          <button type="button" className="button secondary" onClick={() => void download()} disabled={busy}>
            {t("embeds.chats.export.open")}
          </button>
        </div>
      </div>
      <p className="muted">{t("embeds.chats.intro")}</p>
      {loadError && (
        <p className="form-error" role="alert">{t("embeds.chats.loadFailedWith", { error: loadError })}</p>
      )}
      {data && data.chats.length === 0 && <p className="muted">{t("embeds.chats.empty")}</p>}
      {data && data.chats.length > 0 && (
        <table className="admin-table embed-chats-table">
          <caption className="visually-hidden">{t("embeds.chats.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("embeds.chats.table.embed")}</th>
              <th scope="col">{t("embeds.chats.table.sender")}</th>
              <th scope="col">{t("embeds.chats.table.message")}</th>
              <th scope="col">{t("embeds.chats.table.response")}</th>
              <th scope="col">{t("embeds.chats.table.sentAt")}</th>
              <th scope="col">{t("embeds.chats.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {data.chats.map((chat) => {
              const connection = connectionOf(chat.connection_information);
              return (
                <tr key={chat.id}>
                  <td data-label={t("embeds.chats.table.embed")}>
                    <span className="user-name">{chat.embed_config.workspace.name}</span>
                    <span className="muted small">#{chat.embed_config.id}</span>
                  </td>
                  <td data-label={t("embeds.chats.table.sender")}>
                    <code className="embed-session" title={chat.session_id}>
                      {chat.session_id.slice(0, 8)}
                    </code>
                    {(connection.username || connection.host) && (
                      <span className="muted small">
                        {" "}
                        {[connection.username, connection.host].filter(Boolean).join(" · ")}
                      </span>
                    )}
                  </td>
                  <td data-label={t("embeds.chats.table.message")} className="embed-chat-text">
                    {chat.prompt}
                  </td>
                  <td data-label={t("embeds.chats.table.response")} className="embed-chat-text">
                    {answerText(chat.response)}
                  </td>
                  <td data-label={t("embeds.chats.table.sentAt")}>{formatDate(chat.createdAt)}</td>
                  <td data-label={t("embeds.chats.table.actions")}>
                    <button
                      type="button"
                      className="button danger"
                      disabled={busy}
                      onClick={() => setDeleting(chat)}
                      aria-label={t("embeds.chats.delete.label", { id: chat.id })}
                    >
                      {t("embeds.chats.delete.open")}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {data && (page > 0 || data.hasPages) && (
        <nav className="row-actions" aria-label={t("embeds.chats.pages")}>
          <button
            type="button"
            className="button secondary"
            disabled={page === 0}
            onClick={() =>
              setPage(page - 1)}
          >
            {t("embeds.chats.previous")}
          </button>
          <span className="muted">{t("embeds.chats.page", { page: page + 1 })}</span>
          <button
            type="button"
            className="button secondary"
            disabled={!data.hasPages}
            onClick={() =>
              setPage(page + 1)}
          >
            {t("embeds.chats.next")}
          </button>
        </nav>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("embeds.chats.delete.title")}
        message={t("embeds.chats.delete.confirm")}
        confirmLabel={t("embeds.chats.delete.submit")}
        busy={busy}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
