import type { ReactNode } from "react";

export type Detail = { label: string; value: ReactNode; hint?: string };

/** Read-only values as a definition list: label, value, and an optional line of guidance. */
export function DetailList({ items }: { items: readonly Detail[] }) {
  return (
    <dl className="details">
      {items.map((item) => (
        <div className="detail" key={item.label}>
          <dt>{item.label}</dt>
          <dd>
            <div className="detail-value">{item.value}</div>
            {item.hint && <div className="field-hint">{item.hint}</div>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
