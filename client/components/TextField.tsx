import { type ComponentProps, type ReactNode, useId } from "react";

type Props = Omit<ComponentProps<"input">, "className"> & {
  label: ReactNode;
  /** A line of guidance under the input. */
  hint?: ReactNode;
  /** A problem with the value: shown under the hint as an alert, and the input is marked invalid. */
  error?: ReactNode;
};

/**
 * A labelled text input ("field", "field-label", "input", "field-hint"); other props go to the <input>.
 * The label points at the input (htmlFor) and the hint, given the id `{id}-hint`, describes it
 * (aria-describedby), so the input's name is its label alone. Without an `id` one is generated.
 */
export function TextField({ label, hint, error, ...input }: Props) {
  const generated = useId();
  const id = input.id ?? generated;
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [input["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined;
  const field = (
    <input
      id={id}
      className="input"
      {...input}
      aria-describedby={describedBy}
      aria-invalid={error ? true : input["aria-invalid"]}
    />
  );
  const hintLine = hint ? <span id={hintId} className="field-hint">{hint}</span> : null;
  const errorLine = error ? <span className="field-error" role="alert">{error}</span> : null;

  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      {field}
      {hintLine}
      {errorLine}
    </div>
  );
}
