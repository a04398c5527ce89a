import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { Preset } from "../../../shared/api/presets.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { TextField } from "../../components/TextField.tsx";
import { api } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";

const PresetList = z.object({ presets: z.array(Preset) });
type Draft = { id: number | null; command: string; prompt: string; description: string };
const EMPTY: Draft = { id: null, command: "", prompt: "", description: "" };

/** The caller's slash command presets: "/name" in the composer stands for a saved prompt. */
export function PresetsSection() {
  const { t } = useTranslation();
  const [presets, setPresets] = useState<Preset[] | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [deleting, setDeleting] = useState<Preset | null>(null);
  const [busy, setBusy] = useState(false);
  // A preset saved before the first list arrived: that list, older than the save's, must not drop it.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const { presets } = await api("/system/slash-command-presets", { schema: PresetList });
      if (current()) setPresets(presets);
    } catch (caught) {
      if (!current()) return;
      setPresets([]);
      toast.error(t("appearance.presets.loadFailed", { error: messageOf(caught) }));
    }
  }, [t]);
  useEffect(() => void reload(), [reload]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const editing = draft.id !== null;
    try {
      await api(editing ? `/system/slash-command-presets/${draft.id}` : "/system/slash-command-presets", {
        json: { command: draft.command, prompt: draft.prompt, description: draft.description },
      });
      toast.success(t(editing ? "appearance.presets.updated" : "appearance.presets.created"));
      setDraft(EMPTY);
      await reload();
    } catch (caught) {
      const key = editing ? "appearance.presets.updateFailed" : "appearance.presets.createFailed";
      toast.error(t(key, { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  async function remove(preset: Preset) {
    setBusy(true);
    try {
      await api(`/system/slash-command-presets/${preset.id}`, { method: "DELETE" });
      toast.success(t("appearance.presets.deleted"));
      setDeleting(null);
      if (draft.id === preset.id) setDraft(EMPTY);
      await reload();
    } catch (caught) {
      toast.error(t("appearance.presets.deleteFailed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }
  const set = (key: "command" | "prompt" | "description") => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));

  return (
    <section className="appearance-section" aria-labelledby="appearance-presets">
      <h2 id="appearance-presets">{t("appearance.presets.title")}</h2>
      <p className="muted">{t("appearance.presets.description")}</p>
      {presets && presets.length === 0 && <p className="muted">{t("appearance.presets.empty")}</p>}
      {presets && presets.length > 0 && (
        <ul className="preset-list" aria-label={t("appearance.presets.listLabel")}>
          {presets.map((preset) => (
            <li key={preset.id} className="preset-item">
              <span>
                <code>{preset.command}</code>
                {preset.description && <span className="muted">{` ${preset.description}`}</span>}
              </span>
              <span className="row-actions">
                <button
                  type="button"
                  className="button secondary"
                  aria-label={t("appearance.presets.editLabel", { command: preset.command })}
                  onClick={() => setDraft({ ...preset })}
                >
                  {t("appearance.presets.edit")}
                </button>
                <button
                  type="button"
                  className="button danger"
                  aria-label={t("appearance.presets.deleteLabel", { command: preset.command })}
                  onClick={() =>
                    setDeleting(preset)}
                >
                  {t("appearance.presets.delete")}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form className="form" onSubmit={save} aria-labelledby="appearance-preset-form">
        <h3 id="appearance-preset-form" className="field-label">
          {draft.id === null ? t("appearance.presets.new") : t("appearance.presets.editing")}
        </h3>
        <TextField
          id="preset-command"
          label={t("appearance.presets.command")}
          hint={t("appearance.presets.commandHint")}
          placeholder="/summary"
          required
          maxLength={64}
          value={draft.command}
          onChange={set("command")}
        />
        <div className="field">
          <label className="field-label" htmlFor="preset-prompt">{t("appearance.presets.prompt")}</label>
          <textarea
            id="preset-prompt"
            className="input"
            rows={3}
            required
            maxLength={20000}
            value={draft.prompt}
            onChange={set("prompt")}
          />
        </div>
        <TextField
          id="preset-description"
          label={t("appearance.presets.descriptionLabel")}
          maxLength={500}
          value={draft.description}
          onChange={set("description")}
        />
        <div className="form-actions">
          {draft.id !== null && (
            <button
              type="button"
              className="button secondary"
              onClick={() => setDraft(EMPTY)}
            >
              {t("common.cancel")}
            </button>
          )}
          <button type="submit" className="button primary" disabled={busy}>
            {draft.id === null ? t("appearance.presets.add") : t("appearance.presets.saveEdit")}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={deleting !== null}
        title={t("appearance.presets.deleteTitle")}
        message={t("appearance.presets.deleteConfirm", { command: deleting?.command ?? "" })}
        confirmLabel={t("appearance.presets.delete")}
        busy={busy}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
