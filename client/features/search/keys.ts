/** Where focus is among the search field (-1) and its result links (0 … count - 1). */
export type SearchFocus = number;

/**
 * Where an arrow, Home or End key moves focus from `from`: down from the field to the first result and
 * through the results, up back to the field; the ends hold. Null for a key that moves nothing.
 */
export function moveFocus(key: string, from: SearchFocus, count: number): SearchFocus | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return Math.min(from + 1, count - 1);
    case "ArrowUp":
      return Math.max(from - 1, -1);
    case "Home":
      return from === -1 ? null : 0;
    case "End":
      return from === -1 ? null : count - 1;
    default:
      return null;
  }
}
