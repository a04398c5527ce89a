import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "../../../../components/TextField.tsx";
import {
  type ConfluencePayload,
  confluencePayload,
  confluenceProblems,
  type ConfluenceValues,
  isClean,
} from "./validation.ts";

type Props = { onSubmit: (payload: ConfluencePayload) => void; busy: boolean };

const START: ConfluenceValues = {
  deployment: "cloud",
  baseUrl: "",
  spaceKey: "",
  authType: "username",
  username: "",
  accessToken: "",
  personalAccessToken: "",
};

/**
 * "Confluence": deployment type (Atlassian Cloud or self-hosted), base URL, space key, and a username with an
 * access token or a personal access token; posts `{baseUrl, spaceKey, username, accessToken, cloud}` (with
 * `personalAccessToken` when that is chosen, as the reference does).
 */
export function ConfluenceForm({ onSubmit, busy }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState(START);
  const [tried, setTried] = useState(false);
  const problems = tried ? confluenceProblems(values) : {};
  const set = (field: keyof ConfluenceValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const problem = (field: keyof ConfluenceValues) => (problems[field] ? t(problems[field]) : undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!isClean(confluenceProblems(values))) return;
    onSubmit(confluencePayload(values));
  }

  return (
    <form
      className="form connector-form"
      onSubmit={submit}
      noValidate
      aria-label={t("connectorForms.confluence.name")}
    >
      <div className="field">
        <label className="field-label" htmlFor={`${id}-deployment`}>
          {t("connectorForms.confluence.deployment_type")}
        </label>
        <select
          id={`${id}-deployment`}
          name="deployment"
          className="select"
          value={values.deployment}
          disabled={busy}
          aria-describedby={`${id}-deployment-hint`}
          onChange={set("deployment")}
        >
          <option value="cloud">{t("connectorForms.confluence.deployment_cloud")}</option>
          <option value="server">{t("connectorForms.confluence.deployment_server")}</option>
        </select>
        <span id={`${id}-deployment-hint`} className="field-hint">
          {t("connectorForms.confluence.deployment_type_explained")}
        </span>
      </div>
      <TextField
        label={t("connectorForms.confluence.base_url")}
        name="baseUrl"
        type="url"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder={t("connectorForms.confluence.base_url_placeholder")}
        value={values.baseUrl}
        onChange={set("baseUrl")}
        disabled={busy}
        hint={t("connectorForms.confluence.base_url_explained")}
        error={problem("baseUrl")}
      />
      <TextField
        label={t("connectorForms.confluence.space_key")}
        name="spaceKey"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder={t("connectorForms.confluence.space_key_placeholder")}
        value={values.spaceKey}
        onChange={set("spaceKey")}
        disabled={busy}
        hint={t("connectorForms.confluence.space_key_explained")}
        error={problem("spaceKey")}
      />
      <div className="field">
        <label className="field-label" htmlFor={`${id}-auth`}>
          {t("connectorForms.confluence.auth_type")}
        </label>
        <select
          id={`${id}-auth`}
          name="authType"
          className="select"
          value={values.authType}
          disabled={busy}
          aria-describedby={`${id}-auth-hint`}
          onChange={set("authType")}
        >
          <option value="username">{t("connectorForms.confluence.auth_type_username")}</option>
          <option value="personalToken">{t("connectorForms.confluence.auth_type_personal")}</option>
        </select>
        <span id={`${id}-auth-hint`} className="field-hint">
          {t("connectorForms.confluence.auth_type_explained")}
        </span>
      </div>
      {values.authType === "username"
        ? (
          <>
            <TextField
              label={t("connectorForms.confluence.username")}
              name="username"
              required
              autoComplete="off"
              spellCheck={false}
              placeholder="jdoe@example.com"
              value={values.username}
              onChange={set("username")}
              disabled={busy}
              hint={t("connectorForms.confluence.username_explained")}
              error={problem("username")}
            />
            <TextField
              label={t("connectorForms.confluence.token")}
              name="accessToken"
              type="password"
              required
              autoComplete="off"
              spellCheck={false}
              placeholder="abcd1234"
              value={values.accessToken}
              onChange={set("accessToken")}
              disabled={busy}
              hint={
                <>
                  {t("connectorForms.confluence.token_desc")}.{" "}
                  {t("connectorForms.confluence.token_explained_start")}
                  <a
                    href="https://id.atlassian.com/manage-profile/security/api-tokens"
                    target="_blank"
                    rel="noreferrer"
                  >
                    {t("connectorForms.confluence.token_explained_link")}
                  </a>.
                </>
              }
              error={problem("accessToken")}
            />
          </>
        )
        : (
          <TextField
            label={t("connectorForms.confluence.pat_token")}
            name="personalAccessToken"
            type="password"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="abcd1234"
            value={values.personalAccessToken}
            onChange={set("personalAccessToken")}
            disabled={busy}
            hint={t("connectorForms.confluence.pat_token_explained")}
            error={problem("personalAccessToken")}
          />
        )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("connectorForms.confluence.busy") : t("connectorForms.confluence.submit")}
        </button>
      </div>
      {busy && <p className="field-hint">{t("connectorForms.confluence.task_explained")}</p>}
    </form>
  );
}
