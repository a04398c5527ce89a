import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "../../../../components/TextField.tsx";
import {
  isClean,
  type YouTubePayload,
  youtubePayload,
  youtubeProblems,
  type YouTubeValues,
} from "./validation.ts";

type Props = { onSubmit: (payload: YouTubePayload) => void; busy: boolean };

const EMPTY: YouTubeValues = { url: "", language: "" };

/** "YouTube Transcript": a video's link (and a caption language, optional); posts `{url, language?}`. */
export function YouTubeForm({ onSubmit, busy }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const [tried, setTried] = useState(false);
  const problems = tried ? youtubeProblems(values) : {};
  const set = (field: keyof YouTubeValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!isClean(youtubeProblems(values))) return;
    onSubmit(youtubePayload(values));
  }

  return (
    <form
      className="form connector-form"
      onSubmit={submit}
      noValidate
      aria-label={t("connectorForms.youtube.name")}
    >
      <TextField
        label={t("connectorForms.youtube.URL")}
        name="url"
        type="url"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder="https://youtube.com/watch?v=abc123"
        value={values.url}
        onChange={set("url")}
        disabled={busy}
        hint={
          <>
            {t("connectorForms.youtube.URL_explained_start")}
            <a href="https://support.google.com/youtube/answer/6373554" target="_blank" rel="noreferrer">
              {t("connectorForms.youtube.URL_explained_link")}
            </a>
            {t("connectorForms.youtube.URL_explained_end")}
          </>
        }
        error={problems.url ? t(problems.url) : undefined}
      />
      <TextField
        label={`${t("connectorForms.youtube.language")} (${t("connectorForms.optional")})`}
        name="language"
        autoComplete="off"
        spellCheck={false}
        placeholder="en"
        maxLength={35}
        value={values.language}
        onChange={set("language")}
        disabled={busy}
        hint={t("connectorForms.youtube.language_explained")}
        error={problems.language ? t(problems.language) : undefined}
      />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("connectorForms.youtube.busy") : t("connectorForms.youtube.submit")}
        </button>
      </div>
      {busy && <p className="field-hint">{t("connectorForms.youtube.task_explained")}</p>}
    </form>
  );
}
