import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../components/Dialog.tsx";
import { toast } from "../../lib/toast.ts";
import { recoveryCodesText } from "./recovery.ts";

export const RECOVERY_CODES_FILE = "recovery_codes.txt";

/**
 * The recovery codes of a first login, shown once: download as recovery_codes.txt, copy, close.
 * Close stays disabled until the codes were downloaded; `onClose` then lets the login finish.
 */
export function RecoveryCodesModal({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [downloaded, setDownloaded] = useState(false);
  const [fileUrl, setFileUrl] = useState<string | null>(null);

  useEffect(() => {
    const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: "text/plain" }));
    setFileUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [codes]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      toast.success(t("login.codes.copied"));
    } catch {
      toast.error(t("login.codes.copyFailed"));
    }
  }

  return (
    <Dialog
      open
      title={t("login.codes.title")}
      dismissible={downloaded}
      onClose={() => downloaded && onClose()}
    >
      <div className="recovery-codes-body">
        <p>{t("login.codes.intro")}</p>
        <p className="muted">{t("login.codes.onlyOnce")}</p>
        <ul className="recovery-codes" aria-label={t("login.codes.listLabel")}>
          {codes.map((code) => <li key={code}>{code}</li>)}
        </ul>
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={copy}>{t("login.codes.copy")}</button>
          <a
            className="button secondary"
            href={fileUrl ?? undefined}
            download={RECOVERY_CODES_FILE}
            onClick={() => setDownloaded(true)}
          >
            {t("login.codes.download")}
          </a>
          <button
            type="button"
            className="button primary"
            disabled={!downloaded}
            aria-describedby={downloaded ? undefined : "recovery-codes-close-hint"}
            onClick={onClose}
          >
            {t("login.codes.close")}
          </button>
        </div>
        {!downloaded && (
          <p id="recovery-codes-close-hint" className="field-hint">{t("login.codes.closeHint")}</p>
        )}
      </div>
    </Dialog>
  );
}
