import { type ChangeEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast.ts";
import { removeProfilePicture, uploadProfilePicture } from "./account_api.ts";
import { initials } from "./account_rules.ts";

// The account menu takes the avatar's letters from here too.
export { initials };

/** The account modal's profile picture: upload any image type (800 x 800 recommended) or remove it. */
export function ProfilePictureField(
  { url, error, username, onChange }: {
    url: string | null;
    error: string | null;
    username: string | null;
    onChange: () => void;
  },
) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      await uploadProfilePicture(file);
      toast.success(t("account.pfp.uploaded"));
      onChange();
    } catch (caught) {
      toast.error(t("account.pfp.uploadFailed", { error: (caught as Error).message }));
    }
    input.value = "";
    setBusy(false);
  }

  async function remove() {
    setBusy(true);
    try {
      await removeProfilePicture();
      onChange();
    } catch (caught) {
      toast.error(t("account.pfp.removeFailed", { error: (caught as Error).message }));
    }
    setBusy(false);
  }

  return (
    <div className="pfp-field">
      <div className="avatar avatar-large" aria-hidden={url ? undefined : "true"}>
        {url ? <img src={url} alt={t("account.pfp.alt")} /> : initials(username)}
      </div>
      <div className="pfp-controls">
        <span className="field-label">{t("account.pfp.label")}</span>
        <div className="pfp-actions">
          <label className={`button secondary${busy ? " disabled" : ""}`}>
            {busy ? t("account.pfp.working") : t("account.pfp.upload")}
            <input
              type="file"
              accept="image/*"
              className="visually-hidden"
              name="file"
              disabled={busy}
              onChange={upload}
            />
          </label>
          {url && (
            <button type="button" className="button secondary" disabled={busy} onClick={remove}>
              {t("account.pfp.remove")}
            </button>
          )}
        </div>
        <span className="field-hint">{t("account.pfp.hint")}</span>
        {error && <span className="field-error" role="alert">{error}</span>}
      </div>
    </div>
  );
}
