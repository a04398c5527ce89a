import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  API_KEY_PERMISSIONS,
  API_KEY_SCOPES,
  type ApiKeyView,
  GeneratedApiKey,
  MAX_API_KEY_NAME,
  MAX_API_KEY_RATE_LIMIT,
} from "../../../shared/api/api_keys.ts";
import type { Workspace } from "../../../shared/api/workspaces.ts";
import { CheckboxList } from "../../components/CheckboxList.tsx";
import { Dialog } from "../../components/Dialog.tsx";
import { TextField } from "../../components/TextField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { CopyField } from "../admin/CopyField.tsx";
import { messageOf } from "../admin/requests.ts";
import { ChoiceGroup } from "../onboarding/ChoiceGroup.tsx";
import { emptyKeyForm, keyBody, type KeyForm, keyFormProblems, toggled } from "./api_keys.ts";

type Props = {
  open: boolean;
  path: string;
  workspaces: readonly Workspace[];
  onClose: () => void;
  onCreated: (key: ApiKeyView) => void;
};

/** "Generate new API key": its name, what it may reach and its rate limit; then the whole key, shown once. */
export function GenerateKeyDialog({ open, path, workspaces, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t("apiKeys.generate.title")} onClose={onClose}>
      <GenerateKeyForm path={path} workspaces={workspaces} onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

function GenerateKeyForm({ path, workspaces, onClose, onCreated }: Omit<Props, "open">) {
  const { t } = useTranslation();
  const [form, setForm] = useState<KeyForm>(emptyKeyForm);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyView | null>(null);
  const problems = checked ? keyFormProblems(form) : {};
  const change = (changes: Partial<KeyForm>) => setForm((current) => ({ ...current, ...changes }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setChecked(true);
    if (Object.keys(keyFormProblems(form)).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api(path, { json: keyBody(form), schema: GeneratedApiKey });
      if (!answer.apiKey) throw new ApiError(answer.error ?? t("apiKeys.generate.failed"), 200, answer);
      setCreated(answer.apiKey);
      onCreated(answer.apiKey);
    } catch (caught) {
      setError(messageOf(caught));
      toast.error(t("apiKeys.generate.failed"));
    } finally {
      setBusy(false);
    }
  }

  if (created) {
    return (
      <div className="form">
        <p className="notice warning" role="alert">{t("apiKeys.generate.once")}</p>
        <CopyField id="new-api-key" label={t("apiKeys.generate.key")} value={created.secret} />
        <p className="field-hint">{t("apiKeys.generate.howTo")}</p>
        <div className="form-actions">
          <button type="button" className="button primary" onClick={onClose}>
            {t("apiKeys.generate.done")}
          </button>
        </div>
      </div>
    );
  }

  const problem = (field: keyof typeof problems) =>
    problems[field] ? t(`apiKeys.form.problems.${problems[field]}`) : undefined;
  return (
    <form className="form" onSubmit={submit} noValidate>
      <TextField
        label={t("apiKeys.form.name")}
        hint={t("apiKeys.form.nameHint")}
        value={form.name}
        maxLength={MAX_API_KEY_NAME}
        autoComplete="off"
        onChange={(event) => change({ name: event.target.value })}
        error={problem("name")}
        disabled={busy}
      />
      <ChoiceGroup
        name="api-key-scope"
        legend={t("apiKeys.form.scope")}
        options={API_KEY_SCOPES.map((scope) => ({
          value: scope,
          label: t(`apiKeys.scope.${scope}.label`),
          description: t(`apiKeys.scope.${scope}.description`),
        }))}
        value={form.scope}
        onChange={(scope) => change({ scope })}
        disabled={busy}
      />
      {form.scope === "workspaces" && (
        <>
          <CheckboxList
            legend={t("apiKeys.form.workspaces")}
            hint={t("apiKeys.form.workspacesHint")}
            empty={t("apiKeys.form.noWorkspaces")}
            items={workspaces}
            idOf={(workspace) => workspace.id}
            labelOf={(workspace) => workspace.name}
            chosen={form.workspaceIds}
            onChosenChange={(update) =>
              setForm((current) => ({ ...current, workspaceIds: update(current.workspaceIds) }))}
            disabled={busy}
          />
          {problem("workspaceIds") && <p className="field-error" role="alert">{problem("workspaceIds")}</p>}
          <fieldset className="check-list" disabled={busy}>
            <legend className="field-label">{t("apiKeys.form.permissions")}</legend>
            <p className="field-hint">{t("apiKeys.form.permissionsHint")}</p>
            {API_KEY_PERMISSIONS.map((permission) => (
              <label key={permission} className="check">
                <input
                  type="checkbox"
                  checked={form.permissions.has(permission)}
                  onChange={() => change({ permissions: toggled(form.permissions, permission) })}
                />
                <span>
                  <strong>{t(`apiKeys.permissions.${permission}.short`)}</strong>
                  {" — "}
                  {t(`apiKeys.permissions.${permission}.description`)}
                </span>
              </label>
            ))}
          </fieldset>
          {problem("permissions") && <p className="field-error" role="alert">{problem("permissions")}</p>}
        </>
      )}
      <TextField
        label={t("apiKeys.form.rateLimit")}
        hint={t("apiKeys.form.rateLimitHint", { max: MAX_API_KEY_RATE_LIMIT })}
        value={form.rateLimit}
        inputMode="numeric"
        autoComplete="off"
        onChange={(event) => change({ rateLimit: event.target.value })}
        error={problem("rateLimit")}
        disabled={busy}
      />
      {error && <p className="form-error" role="alert">{t("apiKeys.generate.failedWith", { error })}</p>}
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("apiKeys.generate.busy") : t("apiKeys.generate.submit")}
        </button>
      </div>
    </form>
  );
}
