import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { EMBED_CHAT_MODES, type EmbedView } from "../../../shared/api/embeds.ts";
import type { Workspace } from "../../../shared/api/workspaces.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { TextField } from "../../components/TextField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";
import { ChoiceGroup } from "../onboarding/ChoiceGroup.tsx";
import { embedBody, type EmbedForm, embedFormProblems, emptyEmbedForm, formOf } from "./embeds.ts";

type Props = {
  /** The embed being edited, "new" for a new one, or null when closed. */
  editing: EmbedView | "new" | null;
  workspaces: readonly Workspace[];
  onClose: () => void;
  onSaved: () => void;
};

/** Creates an embed or edits one: its workspace, chat mode, allowed domains, limits and overrides. */
export function EmbedDialog({ editing, workspaces, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const title = editing === "new" || editing === null
    ? t("embeds.form.createTitle")
    : t("embeds.form.editTitle", { id: editing.id });
  return (
    <Dialog open={editing !== null} title={title} onClose={onClose}>
      {editing !== null && (
        <EmbedFormView
          key={editing === "new" ? "new" : editing.id}
          editing={editing}
          workspaces={workspaces}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    </Dialog>
  );
}

const ANSWER_ERROR = (body: unknown) => (body as { error?: unknown })?.error;

function EmbedFormView(
  { editing, workspaces, onClose, onSaved }: Omit<Props, "editing"> & { editing: EmbedView | "new" },
) {
  const { t } = useTranslation();
  const [form, setForm] = useState<EmbedForm>(() =>
    editing === "new" ? emptyEmbedForm(workspaces[0] ? String(workspaces[0].id) : "") : formOf(editing)
  );
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problems = checked ? embedFormProblems(form) : {};
  const change = (changes: Partial<EmbedForm>) => setForm((current) => ({ ...current, ...changes }));
  const problem = (field: keyof typeof problems) => {
    const found = problems[field];
    return found ? t(`embeds.form.problems.${found.key}`, { value: found.value }) : undefined;
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setChecked(true);
    if (Object.keys(embedFormProblems(form)).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const path = editing === "new" ? "/embeds/new" : `/embed/update/${editing.id}`;
      const answer = await api<Record<string, unknown>>(path, { json: embedBody(form) });
      const refused = ANSWER_ERROR(answer);
      if (typeof refused === "string" && refused) throw new ApiError(refused, 200, answer);
      toast.success(editing === "new" ? t("embeds.form.created") : t("embeds.form.saved"));
      onSaved();
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
      toast.error(t("embeds.form.failed"));
    } finally {
      setBusy(false);
    }
  }

  const flag = (key: "allowModelOverride" | "allowTemperatureOverride" | "allowPromptOverride") => (
    <label className="check">
      <input
        type="checkbox"
        checked={form[key]}
        onChange={(event) => change({ [key]: event.target.checked })}
        disabled={busy}
      />
      <span>
        <strong>{t(`embeds.form.${key}`)}</strong>
        {" — "}
        {t(`embeds.form.${key}Hint`)}
      </span>
    </label>
  );

  return (
    <form className="form" onSubmit={submit} noValidate>
      <div className="field">
        <label className="field-label" htmlFor="embed-workspace">{t("embeds.form.workspace")}</label>
        <select
          id="embed-workspace"
          className="input"
          value={form.workspaceId}
          onChange={(event) => change({ workspaceId: event.target.value })}
          disabled={busy}
          aria-describedby="embed-workspace-hint"
        >
          {form.workspaceId === "" && <option value="">{t("embeds.form.chooseWorkspace")}</option>}
          {workspaces.map((workspace) => (
            <option key={workspace.id} value={String(workspace.id)}>{workspace.name}</option>
          ))}
        </select>
        <span id="embed-workspace-hint" className="field-hint">{t("embeds.form.workspaceHint")}</span>
        {problem("workspaceId") && <span className="field-error" role="alert">{problem("workspaceId")}</span>}
      </div>
      <ChoiceGroup
        name="embed-chat-mode"
        legend={t("embeds.form.chatMode")}
        options={EMBED_CHAT_MODES.map((mode) => ({
          value: mode,
          label: t(`embeds.mode.${mode}.label`),
          description: t(`embeds.mode.${mode}.description`),
        }))}
        value={form.chatMode}
        onChange={(chatMode) => change({ chatMode })}
        disabled={busy}
      />
      <div className="field">
        <label className="field-label" htmlFor="embed-domains">{t("embeds.form.domains")}</label>
        <textarea
          id="embed-domains"
          className="input"
          rows={3}
          value={form.domains}
          placeholder="https://example.com"
          onChange={(event) => change({ domains: event.target.value })}
          disabled={busy}
          aria-describedby="embed-domains-hint"
          aria-invalid={problems.domains ? true : undefined}
        />
        <span id="embed-domains-hint" className="field-hint">{t("embeds.form.domainsHint")}</span>
        {problem("domains") && <span className="field-error" role="alert">{problem("domains")}</span>}
      </div>
      <TextField
        label={t("embeds.form.maxChatsPerDay")}
        hint={t("embeds.form.maxChatsPerDayHint")}
        inputMode="numeric"
        value={form.maxChatsPerDay}
        onChange={(event) => change({ maxChatsPerDay: event.target.value })}
        error={problem("maxChatsPerDay")}
        disabled={busy}
      />
      <TextField
        label={t("embeds.form.maxChatsPerSession")}
        hint={t("embeds.form.maxChatsPerSessionHint")}
        inputMode="numeric"
        value={form.maxChatsPerSession}
        onChange={(event) => change({ maxChatsPerSession: event.target.value })}
        error={problem("maxChatsPerSession")}
        disabled={busy}
      />
      <TextField
        label={t("embeds.form.messageLimit")}
        hint={t("embeds.form.messageLimitHint")}
        inputMode="numeric"
        value={form.messageLimit}
        onChange={(event) => change({ messageLimit: event.target.value })}
        error={problem("messageLimit")}
        disabled={busy}
      />
      <fieldset className="check-list" disabled={busy}>
        <legend className="field-label">{t("embeds.form.overrides")}</legend>
        {flag("allowModelOverride")}
        {flag("allowTemperatureOverride")}
        {flag("allowPromptOverride")}
      </fieldset>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="form-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {editing === "new" ? t("embeds.form.create") : t("embeds.form.save")}
        </button>
      </div>
    </form>
  );
}
