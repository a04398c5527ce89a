/**
 * Scrolls `box`, never the page, so that its descendant `item` is fully in view: at the top of the box
 * (`start`), in its middle (`center`), or by the least distance (`nearest`, nothing when already in view).
 * The page itself is left where it is, so a list or menu opening on its choice does not move the page.
 */
export function revealIn(box: HTMLElement, item: HTMLElement, align: "start" | "center" | "nearest") {
  const outer = box.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  const style = getComputedStyle(box);
  const top = outer.top + box.clientTop + (parseFloat(style.paddingTop) || 0);
  const bottom = outer.top + box.clientTop + box.clientHeight - (parseFloat(style.paddingBottom) || 0);
  const above = inner.top - top;
  const below = inner.bottom - bottom;
  if (align === "start") box.scrollTop += above;
  else if (align === "center") box.scrollTop += (above + below) / 2;
  else if (above < 0) box.scrollTop += above;
  else if (below > 0) box.scrollTop += below;
}
