import type { ComponentProps, ReactNode } from "react";

type Props = Omit<ComponentProps<"input">, "className"> & {
  label: ReactNode;
  /** A line of guidance under the input. */
  hint?: ReactNode;
  /** A problem with the value: shown under the hint as an alert, and the input is marked invalid. */
  error?: ReactNode;
};

/**
 * A labelled text input ("field", "field-label", "input", "field-hint"); other props go to the <input>.
 * With an `id`, the label points at the input (htmlFor) and the hint, given the id `{id}-hint`, describes
 * it (aria-describedby); without one, the label wraps the label text, the input and the hint.
 */
export function TextField({ label, hint, error, ...input }: Props) {
  const { id } = input;
  const hintId = id && hint ? `${id}-hint` : undefined;
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

  if (!id) {
    return (
      <label className="field">
        <span className="field-label">{label}</span>
        {field}
        {hintLine}
        {errorLine}
      </label>
    );
  }
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      {field}
      {hintLine}
      {errorLine}
    </div>
  );
}
