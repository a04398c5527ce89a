import { type ReactNode, useCallback, useContext } from "react";
import { useTranslation } from "react-i18next";
import type { SettingField } from "../../../shared/providers/llm_catalog.ts";
import { EndpointField } from "./EndpointField.tsx";
import { useModelList } from "./ModelSelect.tsx";
import { describedByOf, fieldId, fieldTextKeys, visibleFields } from "./provider_fields.ts";
import { ReadOnlyContext } from "./read_only.ts";
import { SettingControl } from "./SettingControl.tsx";
import { useEndpointAutoDetect } from "./use_auto_detect.ts";
import type { ProviderChoice } from "./use_provider_form.ts";

type Props = {
  provider: ProviderChoice;
  values: Record<string, string>;
  locked: readonly string[];
  onChange: (key: string, value: string) => void;
  disabled?: boolean;
  /** Only the keys: the model and limit fields are hidden (a settings object's `credentialsOnly`). */
  credentialsOnly?: boolean;
};

/**
 * The settings form of one provider: required fields marked, numbers at least 1, saved secrets
 * shown masked, fixed choices as a dropdown, the model as a dropdown filled by the provider's model lookup,
 * and, for a local server, its endpoint found by auto-detect. Fields fixed by the server's environment are
 * disabled with a hint.
 */
export function ProviderFields(
  { provider, values, locked, onChange, disabled = false, credentialsOnly = false }: Props,
) {
  const { t, i18n } = useTranslation();
  const readOnly = useContext(ReadOnlyContext);
  const { lookup } = provider;
  const fields = visibleFields(provider.fields, values, credentialsOnly);
  const basePathField = provider.autoDetect ? lookup?.basePathField : undefined;
  const setBasePath = useCallback((value: string) => {
    if (basePathField) onChange(basePathField, value);
  }, [basePathField, onChange]);
  const detect = useEndpointAutoDetect({
    provider,
    initialBasePath: basePathField ? values[basePathField] ?? "" : "",
    setBasePath,
    enabled: !readOnly && !disabled && !!basePathField && !locked.includes(basePathField),
  });
  // A model typed in (Bedrock's ids and inference profiles) is still suggested from the lookup's list.
  const modelField = fields.find((field) =>
    field.type === "model" || (field.type === "text" && field.role === "model" && lookup?.optionFields)
  );
  const modelFixed = readOnly || !modelField || locked.includes(modelField.key);
  const models = useModelList(lookup, provider.fields, values, !modelFixed && detect.state !== "detecting");
  // Once the endpoint typed in lists models, the addresses auto-detect tried no longer matter.
  const modelsListed = models.status === "ready" && models.models.length > 0;

  if (provider.fields.length === 0) return <p className="muted">{t("settings.noFields")}</p>;

  function renderField(field: SettingField, extra: ReactNode = null) {
    const id = fieldId(field.key);
    const isLocked = locked.includes(field.key);
    const texts = fieldTextKeys(field, (key) => i18n.exists(key));
    const named = { provider: provider.name };
    const hints = [
      texts.hint ? t(texts.hint, named) : null,
      isLocked ? t("common.lockedByEnvironment") : null,
    ].filter((hint): hint is string => hint !== null);
    const problem = field.type === "model" && models.status === "failed" && !modelFixed
      ? t("settings.models.failed", { error: models.error })
      : null;
    const describedBy = describedByOf(id, hints.length > 0, problem);
    return (
      <div className="field" key={field.key}>
        <label className="field-label" htmlFor={id}>
          {t(texts.label, named)}
          {field.required && !isLocked && <span className="required-mark" aria-hidden="true">*</span>}
        </label>
        <SettingControl
          field={field}
          id={id}
          describedBy={describedBy}
          isLocked={isLocked}
          disabled={disabled}
          value={values[field.key] ?? ""}
          onChange={(next) => {
            if (field.key === basePathField) detect.typed();
            onChange(field.key, next);
          }}
          models={models}
          modelFixed={modelFixed}
          providerId={provider.id}
        />
        {hints.length > 0 && <span className="field-hint" id={`${id}-hint`}>{hints.join(" ")}</span>}
        {problem && <span className="field-error" id={`${id}-problem`}>{problem}</span>}
        {extra}
      </div>
    );
  }

  return (
    <div className="provider-fields">
      {fields.map((field) =>
        field.key === basePathField && detect.available
          ? (
            <EndpointField
              key={field.key}
              field={field}
              providerName={provider.name}
              endpoint={values[field.key] ?? ""}
              detect={detect}
              modelsListed={modelsListed}
              renderField={renderField}
            />
          )
          : renderField(field)
      )}
    </div>
  );
}
