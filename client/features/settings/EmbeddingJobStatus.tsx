import { useContext, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { embedder } from "../../../shared/providers/embedder_catalog.ts";
import { toast } from "../../lib/toast.ts";
import { ReadOnlyContext } from "./read_only.ts";
import { jobProgress, retryEmbeddingJob, useEmbeddingJob } from "./embedding_jobs.ts";

/**
 * Which embedder answers chats now, and the background re-embedding after a change: a progress bar while it
 * runs, the outcome when it ends, and a retry after a failure.
 */
export function EmbeddingJobStatus({ refreshKey }: { refreshKey: number }) {
  const { t } = useTranslation();
  const readOnly = useContext(ReadOnlyContext);
  const [retries, setRetries] = useState(0);
  const [retrying, setRetrying] = useState(false);
  const { answer, live, error } = useEmbeddingJob(!readOnly, refreshKey + retries);
  const section = useRef<HTMLElement>(null);
  // After a save the form's button is far below; bring the job's progress into view.
  useEffect(() => {
    if (refreshKey > 0) section.current?.scrollIntoView({ block: "nearest" });
  }, [refreshKey, answer !== null]);
  if (error) return <p className="form-error" role="alert">{t("embedder.status.loadFailed", { error })}</p>;
  if (!answer) return null;

  const job = answer.job;
  const running = job?.state === "running";
  const progress = jobProgress(job, live);
  const engineName = (id: string) => embedder(id)?.name ?? id;

  async function retry() {
    setRetrying(true);
    try {
      await retryEmbeddingJob();
      setRetries((count) => count + 1);
    } catch (caught) {
      toast.error(t("embedder.status.retryFailed", { error: (caught as Error).message }));
    } finally {
      setRetrying(false);
    }
  }

  return (
    <section ref={section} className="embedding-status" aria-labelledby="embedding-status-title">
      <h2 id="embedding-status-title" className="provider-form-title">{t("embedder.status.title")}</h2>
      <p>
        {t("embedder.status.active", {
          engine: engineName(answer.active.engine),
          model: answer.active.model,
        })}
      </p>
      {answer.active.error && <p className="notice warning">{answer.active.error}</p>}
      {running && job && progress && (
        <div className="embedding-progress" role="status">
          <progress
            max={Math.max(progress.total, 1)}
            value={progress.done + progress.failed}
            aria-label={t("embedder.status.progressLabel")}
          />
          <span>
            {t("embedder.status.running", {
              engine: engineName(job.engine),
              done: progress.done,
              total: progress.total,
            })}
          </span>
          {progress.failed > 0 && (
            <span className="field-hint">{t("embedder.status.skipped", { count: progress.failed })}</span>
          )}
          <span className="field-hint">{t("embedder.status.runningHint")}</span>
        </div>
      )}
      {job?.state === "done" && (
        <p className="notice" role="status">
          {t("embedder.status.done", { engine: engineName(job.engine), count: job.done })}
          {job.failed > 0 && ` ${t("embedder.status.skipped", { count: job.failed })}`}
        </p>
      )}
      {job?.state === "cancelled" && <p className="notice" role="status">{t("embedder.status.cancelled")}</p>}
      {job?.state === "failed" && (
        <div className="notice warning" role="alert">
          <p>{t("embedder.status.failed", { engine: engineName(job.engine), error: job.error ?? "" })}</p>
          {!readOnly && (
            <button type="button" className="button secondary small" onClick={retry} disabled={retrying}>
              {retrying ? t("embedder.status.retrying") : t("embedder.status.retry")}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
