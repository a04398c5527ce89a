import { useTranslation } from "react-i18next";
import { Dialog } from "../../../components/Dialog.tsx";
import { CopyField } from "../CopyField.tsx";

export type IssuedLink = { name: string; url: string };

/** A single-use login link just issued for an account: shown once, to copy and hand over. */
export function LoginLinkDialog({ link, onClose }: { link: IssuedLink | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={link !== null} title={t("users.link.title", { name: link?.name ?? "" })} onClose={onClose}>
      {link && (
        <div className="form">
          <CopyField id="login-link" label={t("users.link.label")} value={link.url} />
          <p className="field-hint">{t("users.link.hint", { name: link.name })}</p>
          <div className="form-actions">
            <button type="button" className="button primary" onClick={onClose}>{t("common.close")}</button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
