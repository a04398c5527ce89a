import { type ReactNode, useEffect, useRef } from "react";

/** A modal dialog on the native <dialog> element: focus trap, Escape to close, backdrop. */
export function Dialog(
  { open, title, onClose, children }: {
    open: boolean;
    title: string;
    onClose: () => void;
    children: ReactNode;
  },
) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" onClose={onClose} onCancel={onClose} aria-labelledby="dialog-title">
      {open && (
        <div className="dialog-body">
          <h2 id="dialog-title" className="dialog-title">{title}</h2>
          {children}
        </div>
      )}
    </dialog>
  );
}
