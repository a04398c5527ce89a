import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from "react";

/** Rows drawn beyond the visible ones, so a quick scroll does not show gaps. */
const OVERSCAN = 8;

/**
 * A list that renders only the rows in view (plus a few), so ten thousand documents scroll as fast as ten.
 * Rows have one fixed height; `onRange` tells the owner which rows are shown, to load their page.
 */
export function VirtualList(
  { count, rowHeight, className, label, renderRow, rowKey, onRange }: {
    count: number;
    rowHeight: number;
    className: string;
    label: string;
    renderRow: (index: number) => ReactNode;
    rowKey: (index: number) => string | number;
    onRange?: (start: number, end: number) => void;
  },
) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(480);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    setHeight(element.clientHeight || 480);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight || 480));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A shorter list (a new search) must not leave the view scrolled past its end.
  useEffect(() => {
    const element = scroller.current;
    if (element && element.scrollTop > count * rowHeight) {
      element.scrollTop = 0;
      setScrollTop(0);
    }
  }, [count, rowHeight]);

  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const end = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);

  useEffect(() => {
    if (count > 0) onRange?.(start, end);
  }, [start, end, count, onRange]);

  const rows: ReactNode[] = [];
  for (let index = start; index < end; index++) {
    rows.push(
      <li
        key={rowKey(index)}
        className="vlist-row"
        style={{ top: index * rowHeight, height: rowHeight }}
        aria-setsize={count}
        aria-posinset={index + 1}
      >
        {renderRow(index)}
      </li>,
    );
  }
  return (
    <div
      ref={scroller}
      className="vlist"
      // Short lists take only their rows' height; the stylesheet caps it.
      style={{ "--rows-height": `${count * rowHeight + 2}px` } as CSSProperties}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul className={className} aria-label={label} style={{ height: count * rowHeight }}>{rows}</ul>
    </div>
  );
}
