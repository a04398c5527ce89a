import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CreatedBrowserExtensionKey } from "../../../shared/api/browser_extension.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { CopyField } from "../admin/CopyField.tsx";
import { messageOf } from "../admin/requests.ts";
import { connectionFor, connectionMessage } from "./connection.ts";

type Props = { open: boolean; multiUser: boolean; onClose: () => void; onCreated: () => void };

/**
 * "Generate new key": makes a key, shows its connection string once (with Copy) and posts it as the
 * NEW_BROWSER_EXTENSION_CONNECTION window message, which the installed extension picks up to connect.
 */
export function NewKeyDialog({ open, multiUser, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t("browserExtension.create.title")} onClose={onClose}>
      <NewKeyForm multiUser={multiUser} onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

function NewKeyForm({ multiUser, onClose, onCreated }: Omit<Props, "open">) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [connection, setConnection] = useState<string | null>(null);

  async function create() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api("/browser-extension/api-keys/new", {
        method: "POST",
        schema: CreatedBrowserExtensionKey,
      });
      if (!answer.apiKey) {
        throw new ApiError(answer.error ?? t("browserExtension.create.failed"), 200, answer);
      }
      const made = connectionFor(globalThis.location.origin, answer.apiKey);
      setConnection(made);
      onCreated();
      // Only this page (and the extension's content script in it) receives it.
      globalThis.postMessage(connectionMessage(made), globalThis.location.origin);
    } catch (caught) {
      setError(messageOf(caught));
      toast.error(t("browserExtension.create.failed"));
    } finally {
      setBusy(false);
    }
  }

  if (connection) {
    return (
      <div className="form">
        <p className="notice warning" role="alert">{t("browserExtension.create.once")}</p>
        <CopyField
          id="browser-extension-connection"
          label={t("browserExtension.create.connection")}
          value={connection}
        />
        <p className="field-hint">{t("browserExtension.create.howTo")}</p>
        <div className="form-actions">
          <button type="button" className="button primary" onClick={onClose}>
            {t("browserExtension.create.done")}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="form">
      <p>{t("browserExtension.create.explain")}</p>
      {multiUser && <p className="notice warning">{t("browserExtension.create.multiUser")}</p>}
      {error && (
        <p className="form-error" role="alert">{t("browserExtension.create.failedWith", { error })}</p>
      )}
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="button" className="button primary" onClick={() => void create()} disabled={busy}>
          {busy ? t("browserExtension.create.busy") : t("browserExtension.create.submit")}
        </button>
      </div>
    </div>
  );
}
