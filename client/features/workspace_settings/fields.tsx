import type { ReactNode } from "react";

type Base = {
  id: string;
  label: ReactNode;
  /** A line of guidance under the control. */
  hint?: ReactNode;
  value: string;
  onValue: (value: string) => void;
  disabled?: boolean;
};

/** The hint's id, for aria-describedby. */
const hintId = (id: string, hint: ReactNode) => (hint ? `${id}-hint` : undefined);

/** A labelled textarea in the "field" layout of TextField. */
export function TextAreaField(
  { id, label, hint, value, onValue, disabled, rows = 4, maxLength, placeholder, name }: Base & {
    rows?: number;
    maxLength?: number;
    placeholder?: string;
    name?: string;
  },
) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        className="input"
        rows={rows}
        maxLength={maxLength}
        placeholder={placeholder}
        value={value}
        disabled={disabled}
        aria-describedby={hintId(id, hint)}
        onChange={(event) => onValue(event.target.value)}
      />
      {hint && <span id={hintId(id, hint)} className="field-hint">{hint}</span>}
    </div>
  );
}

export type SelectOption = { value: string; label: string };

/** A labelled select in the "field" layout of TextField. */
export function SelectField(
  { id, label, hint, value, onValue, disabled, options, name }: Base & {
    options: readonly SelectOption[];
    name?: string;
  },
) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        className="select"
        value={value}
        disabled={disabled}
        aria-describedby={hintId(id, hint)}
        onChange={(event) => onValue(event.target.value)}
      >
        {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
      {hint && <span id={hintId(id, hint)} className="field-hint">{hint}</span>}
    </div>
  );
}
