import { type ReactNode, useCallback, useContext } from "react";
import { useTranslation } from "react-i18next";
import type { SettingField } from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret } from "../../../shared/settings.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { ModelSelect, useModelList } from "./ModelSelect.tsx";
import { ReadOnlyContext } from "./read_only.ts";
import { useEndpointAutoDetect } from "./use_auto_detect.ts";
import type { ProviderChoice } from "./use_provider_form.ts";

type Props = {
  provider: ProviderChoice;
  values: Record<string, string>;
  locked: readonly string[];
  onChange: (key: string, value: string) => void;
  disabled?: boolean;
};

const INPUT_TYPES: Record<"url" | "password" | "text" | "number", string> = {
  url: "url",
  password: "password",
  text: "text",
  number: "number",
};

/**
 * The settings form of one provider: required fields marked, numbers at least 1, saved secrets
 * shown masked, fixed choices as a dropdown, the model as a dropdown filled by the provider's model lookup,
 * and, for a local server, its endpoint found by auto-detect. Fields fixed by the server's environment are
 * disabled with a hint.
 */
export function ProviderFields({ provider, values, locked, onChange, disabled = false }: Props) {
  const { t, i18n } = useTranslation();
  const readOnly = useContext(ReadOnlyContext);
  const { fields, lookup } = provider;
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
  const modelField = fields.find((field) => field.type === "model");
  const modelFixed = readOnly || !modelField || locked.includes(modelField.key);
  const models = useModelList(lookup, fields, values, !modelFixed && detect.state !== "detecting");
  // Once the endpoint typed in lists models, the addresses auto-detect tried no longer matter.
  const modelsListed = models.status === "ready" && models.models.length > 0;

  if (fields.length === 0) return <p className="muted">{t("settings.noFields")}</p>;

  function control(field: SettingField, id: string, describedBy: string | undefined, isLocked: boolean) {
    const value = values[field.key] ?? "";
    const off = disabled || isLocked;
    if (field.type === "model") {
      return (
        <ModelSelect
          id={id}
          field={field}
          value={value}
          onChange={(next) => onChange(field.key, next)}
          list={models}
          provider={provider.id}
          describedBy={describedBy}
          fixed={modelFixed}
          disabled={off}
        />
      );
    }
    if (field.type === "select") {
      const options = field.options ?? [];
      const unlisted = value !== "" && !options.some((option) => option.value === value);
      return (
        <select
          id={id}
          className="select"
          name={field.key}
          required={field.required && !isLocked}
          disabled={off}
          value={value}
          aria-describedby={describedBy}
          onChange={(event) => onChange(field.key, event.target.value)}
        >
          {unlisted && <option value={value}>{value}</option>}
          {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
        </select>
      );
    }
    return (
      <input
        id={id}
        className="input"
        name={field.key}
        type={INPUT_TYPES[field.type]}
        required={field.required && !isLocked}
        disabled={off}
        min={field.type === "number" ? 1 : undefined}
        step={field.type === "number" ? 1 : undefined}
        inputMode={field.type === "number" ? "numeric" : undefined}
        placeholder={field.placeholder}
        autoComplete={field.type === "password" ? "new-password" : "off"}
        spellCheck={false}
        value={value}
        aria-describedby={describedBy}
        onFocus={(event) => {
          if (field.type === "password" && isMaskedSecret(event.currentTarget.value)) {
            event.currentTarget.select();
          }
        }}
        onChange={(event) => onChange(field.key, event.target.value)}
      />
    );
  }

  function renderField(field: SettingField, extra: ReactNode = null) {
    const id = `setting-${field.key}`;
    const isLocked = locked.includes(field.key);
    const hintKey = `settings.fields.${field.key}.hint`;
    const hints = [
      i18n.exists(hintKey) ? t(hintKey) : null,
      isLocked ? t("common.lockedByEnvironment") : null,
    ].filter((hint): hint is string => hint !== null);
    const problem = field.type === "model" && models.status === "failed" && !modelFixed ? models.error : null;
    const describedBy = [hints.length > 0 ? `${id}-hint` : null, problem ? `${id}-problem` : null]
      .filter(Boolean).join(" ") || undefined;
    return (
      <div className="field" key={field.key}>
        <label className="field-label" htmlFor={id}>
          {t(`settings.fields.${field.key}.label`)}
          {field.required && !isLocked && <span className="required-mark" aria-hidden="true">*</span>}
        </label>
        {control(field, id, describedBy, isLocked)}
        {hints.length > 0 && <span className="field-hint" id={`${id}-hint`}>{hints.join(" ")}</span>}
        {problem && <span className="field-error" id={`${id}-problem`}>{problem}</span>}
        {extra}
      </div>
    );
  }

  function endpoint(field: SettingField) {
    const sectionId = `setting-${field.key}-manual`;
    const busy = detect.state === "detecting";
    return (
      <div className="provider-endpoint" key={field.key}>
        <div className="provider-endpoint-bar">
          {busy && (
            <span className="auto-detect-status" role="status">
              <Spinner label={t("settings.autoDetect.detecting", { provider: provider.name })} />
              <span>{t("settings.autoDetect.detecting", { provider: provider.name })}</span>
            </span>
          )}
          {detect.state === "found" && (
            <span className="auto-detect-status">
              {t("settings.autoDetect.foundAt", {
                provider: provider.name,
                endpoint: values[field.key] ?? "",
              })}
            </span>
          )}
          <button
            type="button"
            className="button secondary small"
            aria-expanded={detect.manualShown}
            aria-controls={sectionId}
            onClick={detect.toggleManual}
          >
            {detect.manualShown ? t("settings.autoDetect.hide") : t("settings.autoDetect.show")}
          </button>
        </div>
        {detect.manualShown && (
          <div className="provider-endpoint-manual" id={sectionId}>
            {renderField(
              field,
              <>
                {detect.state === "failed" && detect.failed.length > 0 && !modelsListed && (
                  <ul className="auto-detect-failures">
                    {detect.failed.map((url) => (
                      <li key={url}>
                        {t("settings.autoDetect.didNotResolve", { provider: provider.name, endpoint: url })}
                      </li>
                    ))}
                  </ul>
                )}
                {!busy && (
                  <div>
                    <button type="button" className="button secondary small" onClick={detect.run}>
                      {t("settings.autoDetect.run")}
                    </button>
                  </div>
                )}
              </>,
            )}
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="provider-fields">
      {fields.map((field) =>
        field.key === basePathField && detect.available ? endpoint(field) : renderField(field)
      )}
    </div>
  );
}
