import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LiveSyncStatus, SuccessOrError } from "../../shared/api/live_sync.ts";
import { paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { api, ApiError } from "../lib/api.ts";
import { toast } from "../lib/toast.ts";

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}

/** The live document sync card: its switch (saved at once), what it does, and the way to the watched list. */
function LiveSyncCard() {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api("/experimental/live-sync", { schema: LiveSyncStatus, signal: controller.signal })
      .then((status) => setEnabled(status.enabled))
      .catch((caught: Error) => {
        if (caught.name !== "AbortError") setLoadError(caught.message);
      });
    return () => controller.abort();
  }, []);

  async function toggle(next: boolean) {
    setBusy(true);
    try {
      const answer = await api("/experimental/toggle-live-sync", {
        json: { updatedStatus: next },
        schema: SuccessOrError,
      });
      if (!answer.success) throw new ApiError(answer.error ?? "", 200, answer);
      setEnabled(next);
      toast.success(next ? t("liveSync.card.enabled") : t("liveSync.card.disabled"));
    } catch (caught) {
      toast.error(t("liveSync.card.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card live-sync-card" aria-labelledby="live-sync-title">
      <div className="live-sync-card-head">
        <h2 id="live-sync-title">{t("liveSync.card.title")}</h2>
        <span className="badge">{t("liveSync.card.beta")}</span>
      </div>
      {loadError && (
        <p className="form-error" role="alert">{t("liveSync.card.loadFailed", { error: loadError })}</p>
      )}
      {!loadError && enabled === null && <LoadingBlock label={t("common.loading")} />}
      {enabled !== null && (
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            disabled={busy}
            onChange={(event) => toggle(event.target.checked)}
          />
          <span>{t("liveSync.card.toggle")}</span>
        </label>
      )}
      <p>{t("liveSync.card.explanationSources")}</p>
      <p className="muted">{t("liveSync.card.everywhere")}</p>
      <p className="muted small">{t("liveSync.card.watchableOnly")}</p>
      <a className="live-sync-manage-link" href={paths.settings("beta-features/live-document-sync/manage")}>
        {t("liveSync.card.manage")}
      </a>
    </section>
  );
}

/** /settings/beta-features: the features an admin or manager turns on for the whole instance. */
export default function BetaFeatures() {
  return (
    <SettingsPage page="beta-features">
      {() => <LiveSyncCard />}
    </SettingsPage>
  );
}
