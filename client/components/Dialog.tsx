import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal dialog on the native <dialog> element: focus trap, Escape to close, backdrop. With `dismissible`
 * false, Escape does nothing and the dialog closes only when its owner sets `open` to false.
 */
export function Dialog(
  { open, title, onClose, dismissible = true, children }: {
    open: boolean;
    title: string;
    onClose: () => void;
    dismissible?: boolean;
    children: ReactNode;
  },
) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      onClose={() => {
        // The browser may close a dialog despite a cancelled Escape; one that must stay open opens again.
        if (!dismissible && open) ref.current?.showModal();
        else onClose();
      }}
      onCancel={(event) => {
        if (dismissible) onClose();
        else event.preventDefault();
      }}
      aria-labelledby={titleId}
    >
      {open && (
        <div className="dialog-body">
          <h2 id={titleId} className="dialog-title">{title}</h2>
          {children}
        </div>
      )}
    </dialog>
  );
}
