import { useTranslation } from "react-i18next";
import { LLM_PROVIDERS } from "../../../shared/providers/llm_catalog.ts";
import { ProviderFields } from "./ProviderFields.tsx";
import { ProviderPicker } from "./ProviderPicker.tsx";
import { SettingsForm } from "./SettingsForm.tsx";
import { type SetupResults, updateEnv } from "./setup.ts";
import { useProviderForm } from "./useProviderForm.ts";

/** Providers whose catalog entry has a settings form; the others cannot be chosen in this version. */
export const SELECTABLE_LLMS = LLM_PROVIDERS.filter((provider) => provider.fields.length > 0);
/** Local-server providers that need an embedding service of their own (spec 02 §2). */
const NEEDS_EMBEDDER = ["lmstudio", "localai"];

type Props = {
  setup: SetupResults;
  formId: string;
  /** Onboarding saves with the built-in embedder and LanceDB and shows no Save button (spec 01 §2.6). */
  onboarding?: boolean;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/** The language-model provider choice and the chosen provider's form (spec 02 §3). */
export function LlmForm({ setup, formId, onboarding = false, onSaved, onBusyChange }: Props) {
  const { t } = useTranslation();
  const form = useProviderForm(SELECTABLE_LLMS, setup, setup.LLMProvider);
  const providerLocked = form.locked.includes("LLMProvider");

  async function save() {
    const settings: Record<string, string> = {};
    if (!providerLocked) settings.LLMProvider = form.selected;
    if (onboarding) {
      if (!form.locked.includes("EmbeddingEngine")) settings.EmbeddingEngine = "native";
      if (!form.locked.includes("VectorDB")) settings.VectorDB = "lancedb";
    }
    form.applySaved(await updateEnv({ ...settings, ...form.fieldSettings() }));
  }

  return (
    <SettingsForm
      formId={formId}
      showActions={!onboarding}
      save={save}
      successKey={onboarding ? undefined : "llm.saved"}
      failureKey="llm.saveFailed"
      onSaved={onSaved}
      onBusyChange={onBusyChange}
      disabled={!form.choice}
    >
      <ProviderPicker
        name="llm-provider"
        legend={t("llm.providerLegend")}
        searchLabel={t("llm.search")}
        options={SELECTABLE_LLMS.map((provider) => ({
          id: provider.id,
          name: provider.name,
          description: t(`llm.providers.${provider.id}`),
        }))}
        selected={form.selected}
        onSelect={form.select}
        disabled={providerLocked}
      />
      {providerLocked && <p className="field-hint">{t("common.lockedByEnvironment")}</p>}
      {form.choice && (
        <section className="provider-form" aria-labelledby={`${formId}-provider`}>
          <h2 id={`${formId}-provider`} className="provider-form-title">
            {t("llm.providerSettings", { name: form.choice.name })}
          </h2>
          {NEEDS_EMBEDDER.includes(form.choice.id) && <p className="notice">{t("llm.needsEmbedder")}</p>}
          <ProviderFields
            fields={form.choice.fields}
            values={form.values}
            locked={form.locked}
            onChange={form.setValue}
          />
        </section>
      )}
    </SettingsForm>
  );
}
