import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { FOOTER_ICONS, type FooterIcon, type FooterLink } from "../../../shared/api/appearance.ts";
import { FooterIcon as Icon } from "../../components/FooterIcon.tsx";
import { TextField } from "../../components/TextField.tsx";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";
import { footerLinksOf, type FooterRow, footerRows } from "./appearance.ts";

/** Up to 3 links (an icon and an http(s) address) shown at the foot of the sidebar. */
export function FooterSection({ initial }: { initial: FooterLink[] }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<FooterRow[]>(() => footerRows(initial));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const { links, problems } = footerLinksOf(rows);

  async function save(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (problems.some(Boolean)) {
      toast.error(t("appearance.footer.httpOnly"));
      return;
    }
    setBusy(true);
    try {
      await api("/admin/system-preferences", { json: { footer_data: JSON.stringify(links) } });
      toast.success(t("appearance.footer.saved"));
    } catch (caught) {
      toast.error(t("appearance.footer.saveFailed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }
  const update = (index: number, change: Partial<FooterRow>) => {
    setTouched(true);
    setRows((current) => current.map((row, at) => at === index ? { ...row, ...change } : row));
  };

  return (
    <section className="appearance-section" aria-labelledby="appearance-footer">
      <h2 id="appearance-footer">{t("appearance.footer.title")}</h2>
      <p className="muted">{t("appearance.footer.description")}</p>
      <form className="form" onSubmit={save} noValidate>
        {rows.map((row, index) => (
          <div key={index} className="footer-link-row">
            <div className="field">
              <label className="field-label" htmlFor={`footer-icon-${index}`}>
                {t("appearance.footer.icon", { number: index + 1 })}
              </label>
              <select
                id={`footer-icon-${index}`}
                className="input"
                value={row.icon}
                onChange={(event) => update(index, { icon: event.target.value as FooterIcon })}
              >
                {FOOTER_ICONS.map((icon) => (
                  <option key={icon} value={icon}>{t(`appearance.footer.icons.${icon}`)}</option>
                ))}
              </select>
            </div>
            <TextField
              id={`footer-url-${index}`}
              label={t("appearance.footer.url", { number: index + 1 })}
              type="url"
              placeholder="https://example.com"
              value={row.url}
              onChange={(event) => update(index, { url: event.target.value })}
              error={touched && problems[index] ? t(problems[index]!) : undefined}
            />
            <span className="footer-link-preview" aria-hidden="true">
              <Icon name={row.icon} />
            </span>
          </div>
        ))}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {t("appearance.footer.save")}
          </button>
        </div>
      </form>
    </section>
  );
}
