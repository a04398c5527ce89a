import type { SettingField } from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret } from "../../../shared/settings.ts";
import { type ModelListState, ModelSelect } from "./ModelSelect.tsx";
import { inputAttributes, isUnlisted } from "./provider_fields.ts";
import { OptionList } from "./OptionList.tsx";

/**
 * The control of one provider setting: the model dropdown filled by the model lookup, a dropdown of fixed
 * choices (a saved value that is not among them stays offered), or an input; a saved secret shows masked and
 * is selected whole on focus, so typing replaces it.
 */
export function SettingControl(
  { field, id, describedBy, isLocked, disabled, value, onChange, models, modelFixed, providerId }: {
    field: SettingField;
    id: string;
    describedBy: string | undefined;
    isLocked: boolean;
    disabled: boolean;
    value: string;
    onChange: (value: string) => void;
    models: ModelListState;
    modelFixed: boolean;
    providerId: string;
  },
) {
  const off = disabled || isLocked;
  if (field.type === "model") {
    return (
      <ModelSelect
        id={id}
        field={field}
        value={value}
        onChange={onChange}
        list={models}
        provider={providerId}
        describedBy={describedBy}
        fixed={modelFixed}
        disabled={off}
      />
    );
  }
  if (field.type === "select") {
    const options = field.options ?? [];
    return (
      <select
        id={id}
        className="select"
        name={field.key}
        required={field.required && !isLocked}
        disabled={off}
        value={value}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      >
        {isUnlisted(value, options) && <option value={value}>{value}</option>}
        <OptionList options={options} />
      </select>
    );
  }
  // A model typed in is suggested from the provider's model lookup, when it lists any.
  const suggestions = field.role === "model" && !modelFixed && models.status === "ready" ? models.models : [];
  const listId = suggestions.length > 0 ? `${id}-models` : undefined;
  return (
    <>
      <input
        id={id}
        list={listId}
        className="input"
        name={field.key}
        {...inputAttributes(field, isLocked)}
        disabled={off}
        placeholder={field.placeholder}
        spellCheck={false}
        value={value}
        aria-describedby={describedBy}
        onFocus={(event) => {
          if (field.type === "password" && isMaskedSecret(event.currentTarget.value)) {
            event.currentTarget.select();
          }
        }}
        onChange={(event) => onChange(event.target.value)}
      />
      {listId && (
        <datalist id={listId}>
          {suggestions.map((model) => (
            <option key={model.id} value={model.id}>
              {model.organization ? `${model.organization}: ${model.name}` : model.name}
            </option>
          ))}
        </datalist>
      )}
    </>
  );
}
