import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { IsDefaultLogoAnswer, logoUrl } from "../../../shared/api/appearance.ts";
import { api } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";
import { LOGO_ACCEPT } from "./appearance.ts";

type Theme = "light" | "dark";

/** The custom logo, for light and dark themes: upload (PNG, JPEG, WebP or SVG), preview, removal. */
export function LogoSection() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<IsDefaultLogoAnswer | null>(null);
  const [busy, setBusy] = useState<Theme | null>(null);

  // The answer asked for before an upload must not show the default logo again after it.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const answer = await api("/system/is-default-logo", { schema: IsDefaultLogoAnswer });
      if (current()) setStatus(answer);
    } catch (caught) {
      if (current()) toast.error(t("appearance.logo.fetchFailed", { error: messageOf(caught) }));
    }
  }, [t]);
  useEffect(() => void reload(), [reload]);

  async function upload(theme: Theme, file: File | undefined) {
    if (!file) return;
    setBusy(theme);
    try {
      const form = new FormData();
      form.append("logo", file);
      await api(`/system/upload-logo?theme=${theme}`, { form });
      toast.success(t("appearance.logo.uploaded"));
      await reload();
    } catch (caught) {
      toast.error(t("appearance.logo.uploadFailed", { error: messageOf(caught) }));
    } finally {
      setBusy(null);
    }
  }

  async function remove(theme: Theme) {
    setBusy(theme);
    try {
      await api(`/system/remove-logo?theme=${theme}`);
      toast.success(t("appearance.logo.removed"));
      await reload();
    } catch (caught) {
      toast.error(t("appearance.logo.removeFailed", { error: messageOf(caught) }));
    } finally {
      setBusy(null);
    }
  }

  const custom = (theme: Theme) => Boolean(status && status[theme]);
  const preview = (theme: Theme) =>
    status?.version ? logoUrl(theme, status.version) : `/api/system/logo?theme=${theme}`;

  return (
    <section className="appearance-section" aria-labelledby="appearance-logo">
      <h2 id="appearance-logo">{t("appearance.logo.title")}</h2>
      <p className="muted">{t("appearance.logo.description")}</p>
      <div className="logo-variants">
        {(["light", "dark"] as const).map((theme) => (
          <div key={theme} className="logo-variant" data-theme-variant={theme}>
            <h3 className="field-label">{t(`appearance.logo.${theme}`)}</h3>
            <div className={`logo-preview${theme === "dark" ? " dark" : ""}`}>
              {status && (
                <img
                  src={preview(theme)}
                  alt={custom(theme) ? t("appearance.logo.customAlt") : t("appearance.logo.defaultAlt")}
                />
              )}
            </div>
            <span className="field-hint">
              {custom(theme)
                ? t("appearance.logo.isCustom")
                : theme === "dark" && status?.light
                ? t("appearance.logo.darkFallback")
                : t("appearance.logo.isDefault")}
            </span>
            <div className="row-actions">
              <label className="button secondary">
                {custom(theme) ? t("appearance.logo.replace") : t("appearance.logo.upload")}
                <input
                  type="file"
                  className="visually-hidden"
                  accept={LOGO_ACCEPT}
                  disabled={busy !== null}
                  aria-label={t(`appearance.logo.uploadLabel.${theme}`)}
                  onChange={(event) => {
                    void upload(theme, event.target.files?.[0]);
                    event.target.value = "";
                  }}
                />
              </label>
              {custom(theme) && (
                <button
                  type="button"
                  className="button danger"
                  disabled={busy !== null}
                  onClick={() => void remove(theme)}
                >
                  {theme === "dark" ? t("appearance.logo.removeDark") : t("appearance.logo.remove")}
                </button>
              )}
            </div>
          </div>
        ))}
      </div>
      <p className="field-hint">{t("appearance.logo.recommended")}</p>
    </section>
  );
}
