import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiKeyList, type ApiKeyView } from "../../../shared/api/api_keys.ts";
import { type Workspace, WorkspaceList } from "../../../shared/api/workspaces.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { act, messageOf } from "../admin/requests.ts";
import { apiKeyPaths } from "./api_keys.ts";
import { ApiKeyRow } from "./ApiKeyRow.tsx";
import { GenerateKeyDialog } from "./GenerateKeyDialog.tsx";

/** The developer API's documentation, served by this instance (server/developer_api/openapi.ts). */
export const API_DOCS_PATH = "/api/docs";

/**
 * The developer API keys of the instance (admins only): the list with each key masked, "Generate new API key"
 * (the whole key is shown once, in the dialog), deletion after a confirmation, and the API's documentation.
 */
export function ApiKeysScreen({ multiUser }: { multiUser: boolean }) {
  const { t } = useTranslation();
  const paths = useMemo(() => apiKeyPaths(multiUser), [multiUser]);
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  // null until read: a key made before would offer no workspace to limit it to, as if there were none.
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [generating, setGenerating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const [busy, setBusy] = useState(false);
  // An answer older than a reload after an action must not bring back what the action changed.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const answer = await api(paths.list, { schema: ApiKeyList });
      if (!current()) return;
      setKeys(answer.apiKeys);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("apiKeys.loadFailed"));
    }
  }, [paths, t]);

  useEffect(() => {
    void reload();
    api("/workspaces", { schema: WorkspaceList })
      .then((answer) => setWorkspaces(answer.workspaces))
      .catch((caught) => {
        setWorkspaces([]);
        toast.error(t("apiKeys.workspacesFailed", { error: messageOf(caught) }));
      });
  }, [reload, t]);

  async function remove(key: ApiKeyView) {
    setBusy(true);
    try {
      await act(paths.remove(key.id), { method: "DELETE" }, t("apiKeys.delete.refused"));
      toast.success(t("apiKeys.delete.done"));
      setDeleting(null);
      await reload();
    } catch (caught) {
      toast.error(t("apiKeys.delete.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (!keys && !loadError) return <LoadingBlock label={t("apiKeys.loading")} />;

  return (
    <section className="admin-section" aria-labelledby="api-keys-heading">
      <div className="section-heading">
        <h2 id="api-keys-heading">{t("apiKeys.heading", { count: keys?.length ?? 0 })}</h2>
        <div className="row-actions">
          <a className="button secondary" href={API_DOCS_PATH} target="_blank" rel="noopener">
            {t("apiKeys.docs")}
          </a>
          <button
            type="button"
            className="button primary"
            onClick={() => setGenerating(true)}
            disabled={workspaces === null}
          >
            {t("apiKeys.generate.open")}
          </button>
        </div>
      </div>
      <p className="muted">{t("apiKeys.intro")}</p>
      {loadError && (
        <p className="form-error" role="alert">{t("apiKeys.loadFailedWith", { error: loadError })}</p>
      )}
      {keys && keys.length === 0 && <p className="muted">{t("apiKeys.empty")}</p>}
      {keys && keys.length > 0 && (
        <table className="admin-table api-keys-table">
          <caption className="visually-hidden">{t("apiKeys.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("apiKeys.table.name")}</th>
              <th scope="col">{t("apiKeys.table.key")}</th>
              <th scope="col">{t("apiKeys.table.scope")}</th>
              <th scope="col">{t("apiKeys.table.rateLimit")}</th>
              <th scope="col">{t("apiKeys.table.createdBy")}</th>
              <th scope="col">{t("apiKeys.table.created")}</th>
              <th scope="col">{t("apiKeys.table.lastUsed")}</th>
              <th scope="col">{t("apiKeys.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <ApiKeyRow
                key={key.id}
                apiKey={key}
                busy={busy && deleting?.id === key.id}
                onDelete={setDeleting}
              />
            ))}
          </tbody>
        </table>
      )}
      <GenerateKeyDialog
        open={generating}
        path={paths.generate}
        workspaces={workspaces ?? []}
        onClose={() => setGenerating(false)}
        onCreated={() => void reload()}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t("apiKeys.delete.title")}
        message={t("apiKeys.delete.confirm", { name: deleting?.name ?? deleting?.secret ?? "" })}
        confirmLabel={t("apiKeys.delete.submit")}
        busy={busy}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
