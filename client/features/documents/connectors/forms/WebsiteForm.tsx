import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "../../../../components/TextField.tsx";
import {
  CRAWL_DEFAULTS,
  CRAWL_DEPTH_MAX,
  CRAWL_PAGES_MAX,
  isClean,
  type WebsitePayload,
  websitePayload,
  websiteProblems,
  type WebsiteValues,
} from "./validation.ts";

type Props = { onSubmit: (payload: WebsitePayload) => void; busy: boolean };

const START: WebsiteValues = {
  url: "",
  depth: String(CRAWL_DEFAULTS.depth),
  maxLinks: String(CRAWL_DEFAULTS.maxLinks),
};

/** "Bulk Link Scraper": a start URL, the crawl depth and the most pages; posts `{url, depth, maxLinks}`. */
export function WebsiteForm({ onSubmit, busy }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState(START);
  const [tried, setTried] = useState(false);
  const problems = tried ? websiteProblems(values) : {};
  const set = (field: keyof WebsiteValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!isClean(websiteProblems(values))) return;
    onSubmit(websitePayload(values));
  }

  return (
    <form
      className="form connector-form"
      onSubmit={submit}
      noValidate
      aria-label={t("connectorForms.website.name")}
    >
      <TextField
        label={t("connectorForms.website.URL")}
        name="url"
        type="url"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com"
        value={values.url}
        onChange={set("url")}
        disabled={busy}
        hint={t("connectorForms.website.URL_explained")}
        error={problems.url ? t(problems.url) : undefined}
      />
      <TextField
        label={t("connectorForms.website.depth")}
        name="depth"
        type="number"
        inputMode="numeric"
        min={1}
        max={CRAWL_DEPTH_MAX}
        required
        value={values.depth}
        onChange={set("depth")}
        disabled={busy}
        hint={t("connectorForms.website.depth_explained")}
        error={problems.depth ? t(problems.depth, { max: CRAWL_DEPTH_MAX }) : undefined}
      />
      <TextField
        label={t("connectorForms.website.max_pages")}
        name="maxLinks"
        type="number"
        inputMode="numeric"
        min={1}
        max={CRAWL_PAGES_MAX}
        required
        value={values.maxLinks}
        onChange={set("maxLinks")}
        disabled={busy}
        hint={t("connectorForms.website.max_pages_explained")}
        error={problems.maxLinks ? t(problems.maxLinks, { max: CRAWL_PAGES_MAX }) : undefined}
      />
      <p className="field-hint">{t("connectorForms.website.polite")}</p>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("connectorForms.website.busy") : t("connectorForms.website.submit")}
        </button>
      </div>
      {busy && <p className="field-hint">{t("connectorForms.website.task_explained")}</p>}
    </form>
  );
}
