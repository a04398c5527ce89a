import { useTranslation } from "react-i18next";
import { EMBEDDERS, isSelectableEmbedder } from "../../../shared/providers/embedder_catalog.ts";
import { ProviderFields } from "./ProviderFields.tsx";
import { ProviderPicker } from "./ProviderPicker.tsx";
import { SettingsForm } from "./SettingsForm.tsx";
import { type SetupResults, updateEnv } from "./setup.ts";
import { useProviderForm } from "./useProviderForm.ts";

const SELECTABLE_EMBEDDERS = EMBEDDERS.filter(isSelectableEmbedder);

type Props = {
  setup: SetupResults;
  formId: string;
  showActions: boolean;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/** The embedding engine choice: the built-in embedder or an OpenAI-compatible service with its form. */
export function EmbedderForm({ setup, formId, showActions, onSaved, onBusyChange }: Props) {
  const { t } = useTranslation();
  const form = useProviderForm(SELECTABLE_EMBEDDERS, setup, setup.EmbeddingEngine ?? "native");
  const engineLocked = form.locked.includes("EmbeddingEngine");

  async function save() {
    const settings: Record<string, string> = engineLocked ? {} : { EmbeddingEngine: form.selected };
    form.applySaved(await updateEnv({ ...settings, ...form.fieldSettings() }));
  }

  return (
    <SettingsForm
      formId={formId}
      showActions={showActions}
      save={save}
      successKey={showActions ? "embedder.saved" : undefined}
      failureKey="embedder.saveFailed"
      onSaved={onSaved}
      onBusyChange={onBusyChange}
      disabled={!form.choice}
    >
      <ProviderPicker
        name="embedding-engine"
        legend={t("embedder.legend")}
        options={SELECTABLE_EMBEDDERS.map((entry) => ({
          id: entry.id,
          name: entry.name,
          description: t(`embedder.providers.${entry.id}`),
        }))}
        selected={form.selected}
        onSelect={form.select}
        disabled={engineLocked}
      />
      {engineLocked && <p className="field-hint">{t("common.lockedByEnvironment")}</p>}
      {form.choice && form.choice.fields.length > 0 && (
        <section className="provider-form" aria-labelledby={`${formId}-provider`}>
          <h2 id={`${formId}-provider`} className="provider-form-title">
            {t("embedder.providerSettings", { name: form.choice.name })}
          </h2>
          <ProviderFields
            fields={form.choice.fields}
            values={form.values}
            locked={form.locked}
            onChange={form.setValue}
          />
        </section>
      )}
      <p className="field-hint">{t("embedder.changeWarning")}</p>
    </SettingsForm>
  );
}
