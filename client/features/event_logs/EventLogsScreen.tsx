import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  EVENT_LOG_EXPORT_TYPES,
  EVENT_LOGS_PAGE_SIZE,
  type EventLogExportType,
  EventLogsPage,
} from "../../../shared/api/event_logs.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api, apiBlob } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { act, messageOf } from "../admin/requests.ts";
import { eventLogPaths, exportFileName, pageRange } from "./event_logs.ts";
import { EventLogRow } from "./EventLogRow.tsx";

/** Saves a blob as a file the browser downloads. */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The event logs (admins only): a page of events at a time, newest first, each one's metadata shown on demand;
 * export of the whole log as CSV or JSON; and clearing it after a confirmation.
 */
export function EventLogsScreen() {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<EventLogsPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [exporting, setExporting] = useState<EventLogExportType | null>(null);
  // The page asked for last is the one shown, whatever order the answers arrive in.
  const order = useLatest();

  const load = useCallback(async (at: number) => {
    const current = order.start();
    setLoading(true);
    try {
      const answer = await api(eventLogPaths.page, { json: { offset: at }, schema: EventLogsPage });
      if (!current()) return;
      // A page emptied meanwhile (the log was cleared elsewhere): back to the first one.
      if (answer.logs.length === 0 && at > 0) {
        setOffset(0);
        return;
      }
      setPage(answer);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("eventLogs.loadFailed"));
    } finally {
      if (current()) setLoading(false);
    }
  }, [t]);

  useEffect(() => {
    void load(offset);
  }, [load, offset]);

  function toggle(id: number) {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  async function clear() {
    setClearing(true);
    try {
      await act(eventLogPaths.clear, { method: "DELETE" }, t("eventLogs.clear.refused"));
      toast.success(t("eventLogs.clear.done"));
      setConfirming(false);
      setExpanded(new Set());
      if (offset === 0) await load(0);
      else setOffset(0);
    } catch (caught) {
      toast.error(t("eventLogs.clear.failed", { error: messageOf(caught) }));
    } finally {
      setClearing(false);
    }
  }

  async function download(type: EventLogExportType) {
    setExporting(type);
    try {
      const blob = await apiBlob(eventLogPaths.export(type));
      saveFile(blob ?? new Blob([]), exportFileName(type));
      toast.success(t("eventLogs.export.done"));
    } catch (caught) {
      toast.error(t("eventLogs.export.failed", { error: messageOf(caught) }));
    } finally {
      setExporting(null);
    }
  }

  if (!page && !loadError) return <LoadingBlock label={t("eventLogs.loading")} />;

  const logs = page?.logs ?? [];
  const range = page ? pageRange(offset, EVENT_LOGS_PAGE_SIZE, logs.length, page.totalLogs) : null;
  return (
    <section className="admin-section" aria-labelledby="event-logs-heading" aria-busy={loading}>
      <div className="section-heading">
        <h2 id="event-logs-heading">{t("eventLogs.heading", { count: page?.totalLogs ?? 0 })}</h2>
        <div className="row-actions event-log-actions">
          {EVENT_LOG_EXPORT_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              className="button secondary"
              disabled={exporting !== null}
              onClick={() => void download(type)}
            >
              {exporting === type ? t("eventLogs.export.busy") : t(`eventLogs.export.${type}`)}
            </button>
          ))}
          <button
            type="button"
            className="button danger"
            disabled={clearing || logs.length === 0}
            onClick={() => setConfirming(true)}
          >
            {t("eventLogs.clear.open")}
          </button>
        </div>
      </div>
      {loadError && (
        <p className="form-error" role="alert">{t("eventLogs.loadFailedWith", { error: loadError })}</p>
      )}
      {page && logs.length === 0 && <p className="muted">{t("eventLogs.empty")}</p>}
      {logs.length > 0 && (
        <table className="admin-table event-logs-table">
          <caption className="visually-hidden">{t("eventLogs.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("eventLogs.table.type")}</th>
              <th scope="col">{t("eventLogs.table.user")}</th>
              <th scope="col">{t("eventLogs.table.occurred")}</th>
              <th scope="col">{t("eventLogs.table.metadata")}</th>
            </tr>
          </thead>
          <tbody>
            {logs.map((log) => (
              <EventLogRow key={log.id} log={log} expanded={expanded.has(log.id)} onToggle={toggle} />
            ))}
          </tbody>
        </table>
      )}
      {page && (offset > 0 || page.hasPages) && (
        <nav className="pager" aria-label={t("eventLogs.pager.label")}>
          <button
            type="button"
            className="button secondary"
            disabled={loading || offset === 0}
            onClick={() =>
              setOffset(Math.max(0, offset - 1))}
          >
            {t("eventLogs.pager.previous")}
          </button>
          {range && <span className="muted" aria-live="polite">{t("eventLogs.pager.range", range)}</span>}
          <button
            type="button"
            className="button secondary"
            disabled={loading || !page.hasPages}
            onClick={() =>
              setOffset(offset + 1)}
          >
            {t("eventLogs.pager.next")}
          </button>
        </nav>
      )}
      <ConfirmDialog
        open={confirming}
        title={t("eventLogs.clear.title")}
        message={t("eventLogs.clear.confirm")}
        confirmLabel={t("eventLogs.clear.submit")}
        busy={clearing}
        onConfirm={() => void clear()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
