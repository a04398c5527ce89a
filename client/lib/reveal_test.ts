import assert from "node:assert/strict";
import { stubGlobal } from "../testing/stubs.ts";
import { revealIn } from "./reveal.ts";

/**
 * A scrolling box whose visible part is at `top`…`top + height` on screen (a 2 px border and the given padding),
 * and an item at `itemTop`…`itemTop + itemHeight`.
 */
function layout(itemTop: number, itemHeight: number, padding = { top: 0, bottom: 0 }) {
  const box = {
    scrollTop: 100,
    clientTop: 2,
    clientHeight: 200,
    getBoundingClientRect: () => ({ top: 50, bottom: 254 }),
  };
  const item = { getBoundingClientRect: () => ({ top: itemTop, bottom: itemTop + itemHeight }) };
  const restore = stubGlobal("getComputedStyle", () => ({
    paddingTop: `${padding.top}px`,
    paddingBottom: padding.bottom ? `${padding.bottom}px` : "",
  }));
  return { box, item, restore };
}

/** The scroll position after revealing; the box's inner area is 52…252 on screen. */
function scrolled(
  align: "start" | "center" | "nearest",
  itemTop: number,
  itemHeight = 20,
  padding?: { top: number; bottom: number },
) {
  const { box, item, restore } = layout(itemTop, itemHeight, padding);
  try {
    revealIn(box as unknown as HTMLElement, item as unknown as HTMLElement, align);
    return box.scrollTop;
  } finally {
    restore();
  }
}

Deno.test("revealIn() with start puts the item at the top of the box's inner area", () => {
  assert.equal(scrolled("start", 152), 200);
  assert.equal(scrolled("start", 32), 80, "an item above scrolls back");
  assert.equal(scrolled("start", 152, 20, { top: 10, bottom: 0 }), 190, "padding is kept clear");
});

Deno.test("revealIn() with center puts the item in the middle of the box", () => {
  // Inner area 52…252 (middle 152); an item at 300…320 has its middle at 310.
  assert.equal(scrolled("center", 300), 258);
  assert.equal(scrolled("center", 142), 100, "an item already in the middle stays");
});

Deno.test("revealIn() with nearest scrolls the least distance, and not at all when the item is in view", () => {
  assert.equal(scrolled("nearest", 100), 100, "fully in view");
  assert.equal(scrolled("nearest", 40), 88, "above: its top edge comes to the top");
  assert.equal(scrolled("nearest", 250), 118, "below: its bottom edge comes to the bottom");
  assert.equal(scrolled("nearest", 250, 20, { top: 0, bottom: 8 }), 126, "bottom padding is kept clear");
  assert.equal(scrolled("nearest", 52, 200), 100, "exactly filling the box");
});
