type Option<T extends string> = { value: T; label: string; description?: string };

type Props<T extends string> = {
  name: string;
  legend: string;
  options: readonly Option<T>[];
  value: T | null;
  onChange: (value: T) => void;
  disabled?: boolean;
};

/** A radio group drawn as large buttons side by side (stacked on phones). */
export function ChoiceGroup<T extends string>(
  { name, legend, options, value, onChange, disabled }: Props<T>,
) {
  return (
    <fieldset className="choice-group" disabled={disabled}>
      <legend className="field-label">{legend}</legend>
      <div className="choice-options">
        {options.map((option) => (
          <label key={option.value} className={`choice${option.value === value ? " selected" : ""}`}>
            <input
              type="radio"
              className="visually-hidden"
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() =>
                onChange(option.value)}
            />
            <span className="choice-label">{option.label}</span>
            {option.description && <span className="choice-description">{option.description}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
