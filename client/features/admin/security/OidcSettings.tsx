import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  OIDC_DEFAULTS,
  OIDC_SETTINGS,
  parseRoleMapping,
  parseWorkspaceMapping,
} from "../../../../shared/oidc.ts";
import { MASKED_SECRET } from "../../../../shared/settings.ts";
import { SettingsForm } from "../../settings/SettingsForm.tsx";
import { type SetupResults, updateEnv } from "../../settings/setup.ts";

type Key = keyof typeof OIDC_SETTINGS;
type Values = Record<Key, string>;

const TEXT_FIELDS: { key: Key; type: "url" | "text" | "password"; required?: boolean }[] = [
  { key: "issuer", type: "url", required: true },
  { key: "clientId", type: "text", required: true },
  { key: "clientSecret", type: "password" },
  { key: "scopes", type: "text" },
  { key: "usernameClaim", type: "text" },
  { key: "groupsClaim", type: "text" },
  { key: "buttonLabel", type: "text" },
];
const SWITCHES: Key[] = ["autoCreateUsers", "linkExistingUsers", "passwordLoginDisabled"];
const MAPPINGS: { key: Key; parse: (text: string) => unknown }[] = [
  { key: "roleMapping", parse: parseRoleMapping },
  { key: "workspaceMapping", parse: parseWorkspaceMapping },
];

/** The saved values: a stored secret shows as the mask (sent back unchanged), the rest as saved or default. */
function savedValues(setup: SetupResults): Values {
  const values = {} as Values;
  for (const [name, key] of Object.entries(OIDC_SETTINGS) as [Key, string][]) {
    const saved = setup[key];
    if (name === "clientSecret") values[name] = saved === true ? MASKED_SECRET : "";
    else values[name] = typeof saved === "string" ? saved : "";
  }
  values.scopes ||= OIDC_DEFAULTS.scopes;
  values.usernameClaim ||= OIDC_DEFAULTS.usernameClaim;
  values.enabled ||= "false";
  values.autoCreateUsers ||= "true";
  values.linkExistingUsers ||= "false";
  values.passwordLoginDisabled ||= "false";
  return values;
}

/** The mapping's problem as the server would word it, or null. */
const mappingProblem = (parse: (text: string) => unknown, text: string) => {
  const parsed = parse(text);
  return typeof parsed === "string" ? parsed : null;
};

/**
 * Settings → Security in multi-user mode: login with an OpenID Connect provider (Keycloak, Authentik, Google,
 * Entra ID, Okta…). Saved through update-env; a setting the operator fixed in the environment is shown locked.
 */
export function OidcSettings({ setup }: { setup: SetupResults }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(() => savedValues(setup));
  const locked = new Set(setup.LockedSettings ?? []);
  const set = (key: Key, value: string) => setValues((current) => ({ ...current, [key]: value }));
  const callback = `${globalThis.location?.origin ?? ""}/api/auth/oidc/callback`;
  const enabled = values.enabled === "true";

  async function save() {
    for (const { key, parse } of MAPPINGS) {
      const problem = mappingProblem(parse, values[key]);
      if (problem) throw new Error(`${t(`security.oidc.fields.${key}.label`)}: ${problem}`);
    }
    const changes: Record<string, string> = {};
    for (const [name, key] of Object.entries(OIDC_SETTINGS) as [Key, string][]) {
      if (!locked.has(key)) changes[key] = values[name];
    }
    await updateEnv(changes);
  }

  const lockedNote = (key: Key) =>
    locked.has(OIDC_SETTINGS[key]) ? <span className="muted">{t("security.oidc.locked")}</span> : null;

  return (
    <section className="card admin-card" aria-labelledby="oidc-heading" data-testid="oidc-settings">
      <h2 id="oidc-heading">{t("security.oidc.heading")}</h2>
      <p className="muted">{t("security.oidc.intro")}</p>
      <SettingsForm
        formId="oidc-form"
        showActions
        save={save}
        successKey="security.oidc.saved"
        failureKey="security.oidc.failed"
      >
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            disabled={locked.has(OIDC_SETTINGS.enabled)}
            onChange={(event) => set("enabled", String(event.target.checked))}
          />
          <span>{t("security.oidc.enabled")}</span>
        </label>
        {enabled && (
          <>
            <p className="notice">
              {t("security.oidc.callback")} <code className="break-anywhere">{callback}</code>
            </p>
            {TEXT_FIELDS.map(({ key, type, required }) => (
              <div className="field" key={key}>
                <label htmlFor={`oidc-${key}`}>{t(`security.oidc.fields.${key}.label`)}</label>
                <input
                  id={`oidc-${key}`}
                  className="input"
                  type={type}
                  required={required && !locked.has(OIDC_SETTINGS[key])}
                  disabled={locked.has(OIDC_SETTINGS[key])}
                  autoComplete="off"
                  spellCheck={false}
                  value={values[key]}
                  aria-describedby={`oidc-${key}-hint`}
                  onFocus={(event) => type === "password" && event.currentTarget.select()}
                  onChange={(event) => set(key, event.target.value)}
                />
                <p id={`oidc-${key}-hint`} className="hint">
                  {t(`security.oidc.fields.${key}.hint`)} {lockedNote(key)}
                </p>
              </div>
            ))}
            {MAPPINGS.map(({ key, parse }) => {
              const problem = mappingProblem(parse, values[key]);
              return (
                <div className="field" key={key}>
                  <label htmlFor={`oidc-${key}`}>{t(`security.oidc.fields.${key}.label`)}</label>
                  <textarea
                    id={`oidc-${key}`}
                    className="input"
                    rows={3}
                    spellCheck={false}
                    disabled={locked.has(OIDC_SETTINGS[key])}
                    value={values[key]}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={`oidc-${key}-hint`}
                    onChange={(event) => set(key, event.target.value)}
                  />
                  <p id={`oidc-${key}-hint`} className={problem ? "form-error" : "hint"}>
                    {problem ?? t(`security.oidc.fields.${key}.hint`)} {lockedNote(key)}
                  </p>
                </div>
              );
            })}
            {SWITCHES.map((key) => (
              <label className="switch" key={key}>
                <input
                  type="checkbox"
                  role="switch"
                  checked={values[key] === "true"}
                  disabled={locked.has(OIDC_SETTINGS[key])}
                  onChange={(event) => set(key, String(event.target.checked))}
                />
                <span>{t(`security.oidc.fields.${key}.label`)}</span>
              </label>
            ))}
            {values.passwordLoginDisabled === "true" && (
              <p className="notice">{t("security.oidc.passwordOffNotice")}</p>
            )}
          </>
        )}
      </SettingsForm>
    </section>
  );
}
