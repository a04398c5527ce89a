import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  LiveSyncQueuesAnswer,
  LiveSyncStatus,
  SuccessOrError,
  SyncNowAnswer,
  type SyncQueue,
} from "../../shared/api/live_sync.ts";
import { paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { formatDate } from "../features/dates.ts";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { api } from "../lib/api.ts";
import { toast } from "../lib/toast.ts";

const PAGE = "beta-features/live-document-sync/manage";

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}

function titleOf(queue: SyncQueue): string {
  return queue.workspaceDoc.metadata.title || queue.workspaceDoc.filename;
}

/** Only http(s) links become clickable; anything else is shown as text. */
function safeLink(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

type CardProps = {
  queue: SyncQueue;
  enabled: boolean;
  syncing: boolean;
  busy: boolean;
  onSync: (queue: SyncQueue) => void;
  onStop: (queue: SyncQueue) => void;
};

/** One watched document: where it comes from, where it is used, when it was and will be synced, its last run. */
function QueueCard({ queue, enabled, syncing, busy, onSync, onStop }: CardProps) {
  const { t } = useTranslation();
  const title = titleOf(queue);
  const source = queue.workspaceDoc.metadata.sourceUrl;
  const href = safeLink(source);
  const last = queue.executions[0];
  const status = last?.status ?? "pending";
  const workspace = queue.workspaceDoc.workspace;
  return (
    <li className="card sync-queue" data-queue={queue.id}>
      <div className="sync-queue-head">
        <h2 className="sync-queue-title">{title}</h2>
        <span className={`sync-status ${status}`}>{t(`liveSync.status.${status}`)}</span>
      </div>
      {href
        ? (
          <a className="sync-queue-link" href={href} target="_blank" rel="noopener noreferrer">
            {source}
          </a>
        )
        : <span className="sync-queue-link muted">{source}</span>}
      <dl className="sync-queue-facts">
        <div>
          <dt>{t("liveSync.manage.workspace")}</dt>
          <dd>
            <a href={paths.workspace(workspace.slug)}>{workspace.name}</a>
          </dd>
        </div>
        <div>
          <dt>{t("liveSync.manage.lastSynced")}</dt>
          <dd>{queue.lastSyncedAt ? formatDate(queue.lastSyncedAt) : t("liveSync.manage.never")}</dd>
        </div>
        <div>
          <dt>{t("liveSync.manage.nextSync")}</dt>
          <dd>{formatDate(queue.nextSyncAt)}</dd>
        </div>
      </dl>
      {last?.result && (
        <p className={`sync-result ${last.status}`} role={last.status === "failed" ? "alert" : undefined}>
          <span className="muted">{formatDate(last.createdAt)}:</span> {last.result}
        </p>
      )}
      <div className="row-actions">
        <button
          type="button"
          className="button primary"
          aria-label={t("liveSync.manage.syncNowLabel", { title })}
          disabled={!enabled || busy}
          onClick={() => onSync(queue)}
        >
          {syncing ? t("liveSync.manage.syncing") : t("liveSync.manage.syncNow")}
        </button>
        <button
          type="button"
          className="button secondary"
          aria-label={t("liveSync.manage.stopWatchingLabel", { title })}
          disabled={busy}
          onClick={() => onStop(queue)}
        >
          {t("liveSync.manage.stopWatching")}
        </button>
      </div>
    </li>
  );
}

/** The watched documents with their sync state, and the actions on each. */
function WatchedDocuments() {
  const { t } = useTranslation();
  const [queues, setQueues] = useState<SyncQueue[] | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [syncingId, setSyncingId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<SyncQueue | null>(null);

  const load = useCallback(async (signal?: AbortSignal) => {
    setLoadError(null);
    try {
      const [status, answer] = await Promise.all([
        api("/experimental/live-sync", { schema: LiveSyncStatus, signal }),
        api("/experimental/live-sync/queues", { schema: LiveSyncQueuesAnswer, signal }),
      ]);
      setEnabled(status.enabled);
      setQueues(answer.queues);
    } catch (caught) {
      if ((caught as Error).name !== "AbortError") setLoadError(messageOf(caught));
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  async function syncNow(queue: SyncQueue) {
    const title = titleOf(queue);
    setBusyId(queue.id);
    setSyncingId(queue.id);
    try {
      const answer = await api(`/experimental/live-sync/queues/${queue.id}/sync-now`, {
        method: "POST",
        schema: SyncNowAnswer,
      });
      const next = answer.queue;
      setQueues((current) =>
        current &&
        (next
          ? current.map((entry) => (entry.id === queue.id ? next : entry))
          : current.filter((entry) => entry.id !== queue.id))
      );
      const { status, result } = answer.execution;
      if (!next) toast.warning(t("liveSync.manage.unwatched", { title }));
      else if (status === "success") toast.success(t("liveSync.manage.updated", { title }));
      else if (status === "unchanged") toast.info(t("liveSync.manage.unchanged", { title }));
      else toast.error(t("liveSync.manage.failed", { title, error: result ?? "" }));
    } catch (caught) {
      toast.error(t("liveSync.manage.syncFailed", { error: messageOf(caught) }));
    } finally {
      setBusyId(null);
      setSyncingId(null);
    }
  }

  async function stopWatching() {
    const queue = confirming;
    if (!queue) return;
    setBusyId(queue.id);
    try {
      const answer = await api(`/experimental/live-sync/queues/${queue.id}`, {
        method: "DELETE",
        schema: SuccessOrError,
      });
      if (!answer.success) throw new Error(answer.error ?? "");
      setQueues((current) => current && current.filter((entry) => entry.id !== queue.id));
      toast.success(t("liveSync.manage.stopped", { title: titleOf(queue) }));
      setConfirming(null);
    } catch (caught) {
      toast.error(t("liveSync.manage.stopFailed", { error: messageOf(caught) }));
    } finally {
      setBusyId(null);
    }
  }

  if (loadError) {
    return (
      <div className="form-error live-sync-error" role="alert">
        <p>{t("liveSync.manage.loadFailed", { error: loadError })}</p>
        <button type="button" className="button secondary" onClick={() => load()}>
          {t("liveSync.manage.retry")}
        </button>
      </div>
    );
  }
  if (!queues) return <LoadingBlock label={t("common.loading")} />;
  return (
    <>
      {!enabled && (
        <p className="notice warning" role="status">
          {t("liveSync.manage.off")}{" "}
          <a href={paths.settings("beta-features")}>{t("liveSync.manage.turnOn")}</a>
        </p>
      )}
      {queues.length === 0
        ? (
          <div className="card empty-state live-sync-empty">
            <h2>{t("liveSync.manage.emptyTitle")}</h2>
            <p className="muted">{t("liveSync.manage.emptyBodySources")}</p>
          </div>
        )
        : (
          <>
            <p className="muted live-sync-count">{t("liveSync.manage.count", { count: queues.length })}</p>
            <ul className="sync-queues">
              {queues.map((queue) => (
                <QueueCard
                  key={queue.id}
                  queue={queue}
                  enabled={enabled}
                  syncing={syncingId === queue.id}
                  busy={busyId !== null}
                  onSync={syncNow}
                  onStop={setConfirming}
                />
              ))}
            </ul>
          </>
        )}
      <ConfirmDialog
        open={confirming !== null}
        title={t("liveSync.manage.confirmTitle")}
        message={confirming
          ? t("liveSync.manage.confirmBody", {
            title: titleOf(confirming),
            workspace: confirming.workspaceDoc.workspace.name,
          })
          : ""}
        confirmLabel={t("liveSync.manage.stopWatching")}
        busy={busyId !== null}
        onConfirm={stopWatching}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}

/** /settings/beta-features/live-document-sync/manage: the documents live sync watches. */
export default function LiveSyncManage() {
  const { t } = useTranslation();
  return (
    <SettingsPage
      page={PAGE}
      notice={
        <a className="live-sync-back" href={paths.settings("beta-features")}>{t("liveSync.manage.back")}</a>
      }
    >
      {() => <WatchedDocuments />}
    </SettingsPage>
  );
}
