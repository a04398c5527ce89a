import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useDismiss } from "../../components/use_dismiss.ts";
import { useTranslation } from "react-i18next";

/** The per-thread menu of the sidebar: Rename and Delete Thread. */
export function ThreadMenu(
  { name, onRename, onDelete }: { name: string; onRename: () => void; onDelete: () => void },
) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [above, setAbove] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = useCallback(() => setOpen(false), []);

  // Measured before paint, so a menu that would run past the bottom of the sidebar opens upwards instead of
  // being clipped or scrolling the list under the pointer.
  useLayoutEffect(() => {
    if (!open || !button.current || !items.current) return;
    const area = visibleArea(button.current);
    const anchor = button.current.getBoundingClientRect();
    const height = items.current.offsetHeight;
    const below = area.bottom - anchor.bottom;
    const over = anchor.top - area.top;
    setAbove(height > below && over > below);
  }, [open]);
  // This can run before the re-render that flips the menu: a focus that scrolled would scroll to where the
  // menu no longer is.
  useEffect(() => {
    if (open) {
      items.current?.querySelector<HTMLButtonElement>(".thread-menu-item")?.focus({ preventScroll: true });
    }
  }, [open]);
  useDismiss(open, close, root, button);

  const choose = (action: () => void) => () => {
    setOpen(false);
    button.current?.focus();
    action();
  };

  return (
    <div
      className="thread-menu"
      ref={root}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="icon-button thread-menu-button"
        aria-label={t("threads.actions", { name })}
        title={t("threads.actions", { name })}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div id={id} ref={items} className={`thread-menu-items${above ? " above" : ""}`}>
          <button type="button" className="thread-menu-item" onClick={choose(onRename)}>
            {t("threads.rename")}
          </button>
          <button type="button" className="thread-menu-item danger" onClick={choose(onDelete)}>
            {t("threads.delete")}
          </button>
        </div>
      )}
    </div>
  );
}

/** The part of the viewport in which `element` can show: the window cut by every scrolling ancestor. */
function visibleArea(element: HTMLElement): { top: number; bottom: number } {
  let top = 0;
  let bottom = globalThis.innerHeight;
  for (let node = element.parentElement; node; node = node.parentElement) {
    if (getComputedStyle(node).overflowY === "visible") continue;
    const box = node.getBoundingClientRect();
    top = Math.max(top, box.top);
    bottom = Math.min(bottom, box.bottom);
  }
  return { top, bottom };
}
