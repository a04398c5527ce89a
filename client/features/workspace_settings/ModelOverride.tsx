import { useTranslation } from "react-i18next";
import { LLM_PROVIDERS, llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { TextField } from "../../components/TextField.tsx";
import { SelectField, type SelectOption } from "./fields.tsx";

/** The provider value that stands for the instance's own LLM: the server stores it as null. */
export const INSTANCE_LLM = "default";

/**
 * The choices: the instance's LLM, then the catalog's providers that can be set up in this version (those with
 * settings fields). A provider saved earlier stays listed so the form shows what is stored.
 */
function providerOptions(saved: string | null, instanceLabel: string): SelectOption[] {
  const usable = LLM_PROVIDERS.filter((provider) => provider.fields.length > 0 || provider.id === saved);
  const options: SelectOption[] = [{ value: INSTANCE_LLM, label: instanceLabel }];
  options.push(...usable.map((provider) => ({ value: provider.id, label: provider.name })));
  if (saved && !llmProvider(saved)) options.push({ value: saved, label: saved });
  return options;
}

type Props = {
  /** Prefix of the controls' ids. */
  id: string;
  /** The locale keys of this pair ("chat.override" or "agent"): provider, providerHint, model, modelHint. */
  namespace: string;
  saved: string | null;
  provider: string;
  model: string;
  onProvider: (provider: string) => void;
  onModel: (model: string) => void;
};

/** A provider select ("Use the instance's LLM" or a provider) and the model's name, typed in. */
export function ModelOverride({ id, namespace, saved, provider, model, onProvider, onModel }: Props) {
  const { t } = useTranslation();
  const k = (key: string) => t(`workspaceSettings.${namespace}.${key}`);
  const usesInstance = provider === INSTANCE_LLM;
  return (
    <div className="ws-model-override">
      <SelectField
        id={`${id}-provider`}
        name={`${id}Provider`}
        label={k("provider")}
        hint={k("providerHint")}
        value={provider}
        onValue={onProvider}
        options={providerOptions(saved, t("workspaceSettings.instanceLlm"))}
      />
      <TextField
        id={`${id}-model`}
        name={`${id}Model`}
        label={k("model")}
        hint={usesInstance ? t("workspaceSettings.modelFromInstance") : k("modelHint")}
        value={usesInstance ? "" : model}
        disabled={usesInstance}
        maxLength={255}
        autoComplete="off"
        spellCheck={false}
        placeholder={usesInstance ? undefined : t("workspaceSettings.modelPlaceholder")}
        onChange={(event) => onModel(event.target.value)}
      />
    </div>
  );
}
