import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  BrowserExtensionKeyList,
  type BrowserExtensionKeyView,
} from "../../../shared/api/browser_extension.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { act, messageOf } from "../admin/requests.ts";
import { formatDate } from "../dates.ts";
import { isConnectionEvent } from "./connection.ts";
import { NewKeyDialog } from "./NewKeyDialog.tsx";

/**
 * The browser extension's keys (admins only): the list with each key masked and who made it, "Generate new key"
 * (its connection string is shown once and handed to the extension), and revocation after a confirmation. A
 * NEW_BROWSER_EXTENSION_CONNECTION message in this window (the extension connecting) refreshes the list.
 */
export function BrowserExtensionScreen({ multiUser }: { multiUser: boolean }) {
  const { t } = useTranslation();
  const [keys, setKeys] = useState<BrowserExtensionKeyView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<BrowserExtensionKeyView | null>(null);
  const [busy, setBusy] = useState(false);
  // An answer older than a reload after an action must not bring back what the action changed.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const answer = await api("/browser-extension/api-keys", { schema: BrowserExtensionKeyList });
      if (!current()) return;
      setKeys(answer.apiKeys);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("browserExtension.loadFailed"));
    }
  }, [t]);

  useEffect(() => {
    void reload();
    const onMessage = (event: MessageEvent) => {
      if (event.source !== globalThis.window || event.origin !== globalThis.location.origin) return;
      if (isConnectionEvent(event.data)) void reload();
    };
    globalThis.addEventListener("message", onMessage);
    return () => globalThis.removeEventListener("message", onMessage);
  }, [reload]);

  async function revoke(key: BrowserExtensionKeyView) {
    setBusy(true);
    try {
      await act(
        `/browser-extension/api-keys/${key.id}`,
        { method: "DELETE" },
        t("browserExtension.revoke.failed"),
      );
      toast.success(t("browserExtension.revoke.done"));
      setRevoking(null);
      await reload();
    } catch (caught) {
      toast.error(t("browserExtension.revoke.failedWith", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (!keys && !loadError) return <LoadingBlock label={t("browserExtension.loading")} />;

  return (
    <section className="admin-section" aria-labelledby="browser-extension-heading">
      <div className="section-heading">
        <h2 id="browser-extension-heading">{t("browserExtension.heading", { count: keys?.length ?? 0 })}</h2>
        <div className="row-actions">
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            {t("browserExtension.create.open")}
          </button>
        </div>
      </div>
      <p className="muted">{t("browserExtension.intro")}</p>
      {loadError && (
        <p className="form-error" role="alert">
          {t("browserExtension.loadFailedWith", { error: loadError })}
        </p>
      )}
      {keys && keys.length === 0 && <p className="muted">{t("browserExtension.empty")}</p>}
      {keys && keys.length > 0 && (
        <table className="admin-table api-keys-table browser-extension-table">
          <caption className="visually-hidden">{t("browserExtension.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("browserExtension.table.key")}</th>
              {multiUser && <th scope="col">{t("browserExtension.table.createdBy")}</th>}
              <th scope="col">{t("browserExtension.table.created")}</th>
              <th scope="col">{t("browserExtension.table.lastUsed")}</th>
              <th scope="col">{t("browserExtension.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td data-label={t("browserExtension.table.key")}>
                  <code className="invite-code api-key-secret">{key.key}</code>
                </td>
                {multiUser && (
                  <td data-label={t("browserExtension.table.createdBy")}>
                    {key.user?.username ?? (
                      <span className="muted">{t("browserExtension.table.noOwner")}</span>
                    )}
                  </td>
                )}
                <td data-label={t("browserExtension.table.created")}>{formatDate(key.createdAt)}</td>
                <td data-label={t("browserExtension.table.lastUsed")}>
                  {key.lastUsedAt
                    ? formatDate(key.lastUsedAt)
                    : <span className="muted">{t("browserExtension.table.never")}</span>}
                </td>
                <td data-label={t("browserExtension.table.actions")}>
                  <div className="row-actions">
                    <button
                      type="button"
                      className="button danger"
                      disabled={busy && revoking?.id === key.id}
                      onClick={() => setRevoking(key)}
                      aria-label={t("browserExtension.revoke.label", { key: key.key })}
                    >
                      {t("browserExtension.revoke.open")}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NewKeyDialog
        open={creating}
        multiUser={multiUser}
        onClose={() => setCreating(false)}
        onCreated={() => void reload()}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t("browserExtension.revoke.title")}
        message={t("browserExtension.revoke.confirm", { key: revoking?.key ?? "" })}
        confirmLabel={t("browserExtension.revoke.submit")}
        busy={busy}
        onConfirm={() => revoking && void revoke(revoking)}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
