import { useTranslation } from "react-i18next";
import { TextField } from "../../components/TextField.tsx";
import { SelectField } from "./fields.tsx";
import { INSTANCE_LLM, providerOptions } from "./tab_values.ts";

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
  /** The providers the instance has set up (null while unknown, or when the caller may not read them). */
  configured?: readonly string[] | null;
};

/** A provider select ("Use the instance's LLM" or a provider) and the model's name, typed in. */
export function ModelOverride(
  { id, namespace, saved, provider, model, onProvider, onModel, configured = null }: Props,
) {
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
        options={providerOptions(saved, t("workspaceSettings.instanceLlm"), configured)}
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
