import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ProviderFields } from "./ProviderFields.tsx";
import { choiceSettings } from "./provider_form.ts";
import { ProviderPicker } from "./ProviderPicker.tsx";
import { SettingsForm } from "./SettingsForm.tsx";
import { type SetupResults, updateEnv } from "./setup.ts";
import { type ProviderChoice, useProviderForm } from "./use_provider_form.ts";

type Props = {
  setup: SetupResults;
  formId: string;
  /** The choices of one catalog: LLM providers or embedders. */
  choices: readonly ProviderChoice[];
  /** The setting that names the choice: "LLMProvider" or "EmbeddingEngine". */
  choiceKey: string;
  savedChoice: string | null;
  /** The locale namespace with legend, providers.<id>, providerSettings, saved and saveFailed. */
  namespace: "llm" | "embedder" | "reranker";
  showActions: boolean;
  searchLabel?: string;
  /** Settings sent along with every save (onboarding forces the embedder and the vector database). */
  extraSettings?: Record<string, string>;
  /** Shown above the chosen provider's fields. */
  choiceNotice?: (choice: ProviderChoice) => ReactNode;
  footer?: ReactNode;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/** A provider choice (searchable list) and the chosen provider's form, saved through update-env. */
export function ProviderChoiceForm(props: Props) {
  const { t } = useTranslation();
  const { setup, formId, namespace } = props;
  const form = useProviderForm(props.choices, setup, props.savedChoice);
  const choiceLocked = form.locked.includes(props.choiceKey);

  async function save() {
    const settings = choiceSettings(props.choiceKey, form.selected, form.locked, props.extraSettings);
    form.applySaved(await updateEnv({ ...settings, ...form.fieldSettings() }));
  }

  return (
    <SettingsForm
      formId={formId}
      showActions={props.showActions}
      save={save}
      successKey={props.showActions ? `${namespace}.saved` : undefined}
      failureKey={`${namespace}.saveFailed`}
      onSaved={props.onSaved}
      onBusyChange={props.onBusyChange}
      disabled={!form.choice}
    >
      <ProviderPicker
        name={`${formId}-choice`}
        legend={t(`${namespace}.legend`)}
        searchLabel={props.searchLabel}
        options={props.choices.map((choice) => ({
          id: choice.id,
          name: choice.name,
          kind: choice.kind,
          // A row added without texts of its own still reads well.
          description: t(`${namespace}.providers.${choice.id}`, {
            defaultValue: t("settings.providerDescription", { name: choice.name }),
          }),
        }))}
        selected={form.selected}
        onSelect={form.select}
        disabled={choiceLocked}
      />
      {choiceLocked && <p className="field-hint">{t("common.lockedByEnvironment")}</p>}
      {form.choice && form.choice.fields.length > 0 && (
        <section className="provider-form" aria-labelledby={`${formId}-provider`}>
          <h2 id={`${formId}-provider`} className="provider-form-title">
            {t(`${namespace}.providerSettings`, { name: form.choice.name })}
          </h2>
          {props.choiceNotice?.(form.choice)}
          <ProviderFields
            key={form.choice.id}
            provider={form.choice}
            values={form.values}
            locked={form.locked}
            onChange={form.setValue}
          />
        </section>
      )}
      {props.footer}
    </SettingsForm>
  );
}
