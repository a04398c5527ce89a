import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { MAX_APP_NAME, MAX_PAGE_TITLE } from "../../../shared/api/appearance.ts";
import { TextField } from "../../components/TextField.tsx";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";

export interface BrandingValues {
  custom_app_name: string;
  meta_page_title: string;
  support_email: string;
}

/** The app name (page titles, onboarding, sign-in), the browser tab title and the support email. */
export function BrandingSection({ initial }: { initial: BrandingValues }) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [busy, setBusy] = useState(false);
  const changed = (Object.keys(values) as (keyof BrandingValues)[]).some((key) => values[key] !== saved[key]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await api("/admin/system-preferences", { json: values });
      setSaved(values);
      toast.success(t("appearance.branding.saved"));
    } catch (caught) {
      toast.error(t("appearance.branding.saveFailed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }
  const set = (key: keyof BrandingValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  return (
    <section className="appearance-section" aria-labelledby="appearance-branding">
      <h2 id="appearance-branding">{t("appearance.branding.title")}</h2>
      <form className="form" onSubmit={save}>
        <TextField
          id="appearance-app-name"
          label={t("appearance.branding.appName")}
          hint={t("appearance.branding.appNameHint")}
          placeholder="Lectern"
          maxLength={MAX_APP_NAME}
          autoComplete="off"
          value={values.custom_app_name}
          onChange={set("custom_app_name")}
        />
        <TextField
          id="appearance-page-title"
          label={t("appearance.branding.pageTitle")}
          hint={t("appearance.branding.pageTitleHint")}
          maxLength={MAX_PAGE_TITLE}
          autoComplete="off"
          value={values.meta_page_title}
          onChange={set("meta_page_title")}
        />
        <TextField
          id="appearance-support-email"
          label={t("appearance.branding.supportEmail")}
          hint={t("appearance.branding.supportEmailHint")}
          type="email"
          autoComplete="off"
          value={values.support_email}
          onChange={set("support_email")}
        />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={!changed || busy}>
            {t("appearance.branding.save")}
          </button>
        </div>
      </form>
    </section>
  );
}
