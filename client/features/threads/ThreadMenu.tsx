import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useDismiss } from "../../components/use_dismiss.ts";
import { useTranslation } from "react-i18next";

/** The per-thread menu of the sidebar (spec 01 §2.7): Rename and Delete Thread. */
export function ThreadMenu(
  { name, onRename, onDelete }: { name: string; onRename: () => void; onDelete: () => void },
) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (open) root.current?.querySelector<HTMLButtonElement>(".thread-menu-item")?.focus();
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
        <div id={id} className="thread-menu-items">
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
