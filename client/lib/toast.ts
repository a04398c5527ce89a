import { type Id, toast as toastify, type ToastOptions } from "react-toastify";

/** How long a toast stays; loading toasts stay until they are changed. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/** Toasts: bottom-centre, 5000 ms (set on the Toaster island); loading toasts stay. */
export const toast = {
  success: (message: string, options?: ToastOptions) => toastify.success(message, options),
  error: (message: string, options?: ToastOptions) => toastify.error(message, options),
  info: (message: string, options?: ToastOptions) => toastify.info(message, options),
  warning: (message: string, options?: ToastOptions) => toastify.warning(message, options),
  loading: (message: string) => toastify.loading(message, { autoClose: false }),
  dismiss: (id?: string | number) => toastify.dismiss(id),
};

export type ToastKind = "success" | "error" | "info" | "warning";

/**
 * One place on screen for the toasts of a batch of work: `show` puts a toast up, or rewrites the one still
 * showing, so ten files give one toast that changes rather than ten stacked over the page.
 */
export function toastSlot() {
  let id: Id | null = null;
  return {
    /** `keep`: the toast stays until shown again without it (the batch is still running). */
    show(kind: ToastKind, message: string, options: { keep?: boolean } = {}) {
      const autoClose = options.keep ? false : TOAST_AUTO_CLOSE_MS;
      if (id !== null && toastify.isActive(id)) {
        toastify.update(id, { render: message, type: kind, isLoading: false, autoClose });
      } else {
        // A fresh id each time: the library drops a new toast whose id is still leaving the screen.
        id = toastify[kind](message, { autoClose });
      }
    },
  };
}

/**
 * Keeps the bottom-centre toasts clear of `element` (the chat's composer): the Toaster island is elsewhere in
 * the page, so the space to leave goes through the `--toast-clearance` variable that chat.css reads. An
 * element without a box (hidden) leaves none. Returns the function that stops it.
 */
export function keepToastsAbove(element: HTMLElement): () => void {
  const root = document.documentElement;
  const place = () => {
    const box = element.getBoundingClientRect();
    const clearance = box.height > 0 ? Math.max(0, globalThis.innerHeight - box.top) : 0;
    root.style.setProperty("--toast-clearance", `${Math.ceil(clearance)}px`);
  };
  const observer = new ResizeObserver(place);
  observer.observe(element);
  globalThis.addEventListener("resize", place);
  place();
  return () => {
    observer.disconnect();
    globalThis.removeEventListener("resize", place);
    root.style.removeProperty("--toast-clearance");
  };
}
