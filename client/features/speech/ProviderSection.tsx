import { useTranslation } from "react-i18next";
import type { AudioProviderEntry } from "../../../shared/providers/audio_catalog.ts";
import { ProviderFields } from "../settings/ProviderFields.tsx";
import { ProviderPicker } from "../settings/ProviderPicker.tsx";
import type { useProviderForm } from "../settings/use_provider_form.ts";

type Props = {
  /** Prefix of element ids. */
  name: string;
  legend: string;
  choices: readonly AudioProviderEntry[];
  /** The locale key of a provider's description: `${descriptions}.${id}`. */
  descriptions: string;
  choiceKey: string;
  form: ReturnType<typeof useProviderForm>;
  title: string;
};

/** One speech provider choice (a list to pick from) and the chosen provider's fields, for a settings form. */
export function ProviderSection({ name, legend, choices, descriptions, choiceKey, form, title }: Props) {
  const { t } = useTranslation();
  const locked = form.locked.includes(choiceKey);
  return (
    <>
      <ProviderPicker
        name={name}
        legend={legend}
        options={choices.map((choice) => ({
          id: choice.id,
          name: choice.name,
          kind: choice.kind,
          description: t(`${descriptions}.${choice.id}`),
        }))}
        selected={form.selected}
        onSelect={form.select}
        disabled={locked}
      />
      {locked && <p className="field-hint">{t("common.lockedByEnvironment")}</p>}
      {form.choice && form.choice.fields.length > 0 && (
        <section className="provider-form" aria-labelledby={`${name}-provider`}>
          <h2 id={`${name}-provider`} className="provider-form-title">{title}</h2>
          <ProviderFields
            key={form.choice.id}
            provider={form.choice}
            values={form.values}
            locked={form.locked}
            onChange={form.setValue}
          />
        </section>
      )}
    </>
  );
}
