import { useTranslation } from "react-i18next";
import type { SettingField } from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret } from "../../../shared/settings.ts";

type Props = {
  fields: readonly SettingField[];
  values: Record<string, string>;
  locked: readonly string[];
  onChange: (key: string, value: string) => void;
  disabled?: boolean;
};

const INPUT_TYPES: Record<SettingField["type"], string> = {
  url: "url",
  password: "password",
  text: "text",
  number: "number",
  select: "text",
  model: "text",
};

/**
 * The settings form of one provider (spec 02 §3, §5): required fields marked, numbers at least 1, saved
 * secrets shown masked, and fields fixed by the server's environment disabled with a hint.
 */
export function ProviderFields({ fields, values, locked, onChange, disabled = false }: Props) {
  const { t, i18n } = useTranslation();
  if (fields.length === 0) return <p className="muted">{t("settings.noFields")}</p>;
  return (
    <div className="provider-fields">
      {fields.map((field) => {
        const id = `setting-${field.key}`;
        const isLocked = locked.includes(field.key);
        const hintKey = `settings.fields.${field.key}.hint`;
        const hints = [
          i18n.exists(hintKey) ? t(hintKey) : null,
          isLocked ? t("common.lockedByEnvironment") : null,
        ].filter((hint): hint is string => hint !== null);
        const value = values[field.key] ?? "";
        return (
          <div className="field" key={field.key}>
            <label className="field-label" htmlFor={id}>
              {t(`settings.fields.${field.key}.label`)}
              {field.required && !isLocked && <span className="required-mark" aria-hidden="true">*</span>}
            </label>
            <input
              id={id}
              className="input"
              name={field.key}
              type={INPUT_TYPES[field.type]}
              required={field.required && !isLocked}
              disabled={disabled || isLocked}
              min={field.type === "number" ? 1 : undefined}
              step={field.type === "number" ? 1 : undefined}
              inputMode={field.type === "number" ? "numeric" : undefined}
              placeholder={field.placeholder}
              autoComplete={field.type === "password" ? "new-password" : "off"}
              spellCheck={false}
              value={value}
              aria-describedby={hints.length > 0 ? `${id}-hint` : undefined}
              onFocus={(event) => {
                if (field.type === "password" && isMaskedSecret(event.currentTarget.value)) {
                  event.currentTarget.select();
                }
              }}
              onChange={(event) => onChange(field.key, event.target.value)}
            />
            {hints.length > 0 && <span className="field-hint" id={`${id}-hint`}>{hints.join(" ")}</span>}
          </div>
        );
      })}
    </div>
  );
}
