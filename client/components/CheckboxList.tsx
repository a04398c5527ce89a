import type { ReactNode } from "react";

type Props<Item> = {
  legend: ReactNode;
  /** A line of guidance under the legend. */
  hint: ReactNode;
  items: readonly Item[];
  /** The item's id, as kept in `chosen`. */
  idOf: (item: Item) => number;
  /** The text beside the item's checkbox. */
  labelOf: (item: Item) => ReactNode;
  /** A badge after the label, when given. */
  badgeOf?: (item: Item) => ReactNode;
  /** Shown (muted) when there are no items, when given. */
  empty?: ReactNode;
  /** The ids of the checked items. */
  chosen: ReadonlySet<number>;
  /** Receives an update of `chosen` (a state setter fits). */
  onChosenChange: (update: (current: ReadonlySet<number>) => ReadonlySet<number>) => void;
  disabled?: boolean;
};

/**
 * A fieldset of checkboxes ("check-list", "check"), one an item, under a legend and a hint; a click
 * toggles the item's id in `chosen`.
 */
export function CheckboxList<Item>(
  { legend, hint, items, idOf, labelOf, badgeOf, empty, chosen, onChosenChange, disabled }: Props<Item>,
) {
  const toggle = (id: number) =>
    onChosenChange((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <fieldset className="check-list" disabled={disabled}>
      <legend className="field-label">{legend}</legend>
      <p className="field-hint">{hint}</p>
      {items.length === 0 && empty !== undefined && <p className="muted">{empty}</p>}
      {items.map((item) => {
        const id = idOf(item);
        return (
          <label key={id} className="check">
            <input type="checkbox" checked={chosen.has(id)} onChange={() => toggle(id)} />
            <span>{labelOf(item)}</span>
            {badgeOf && <span className="badge">{badgeOf(item)}</span>}
          </label>
        );
      })}
    </fieldset>
  );
}
