import type { Id, ToastOptions } from "react-toastify";

/** How long a toast stays; loading toasts stay until they are changed. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/**
 * react-toastify is not part of a page's first load: it is fetched with the first toast (or when something
 * calls `loadToasts`). Toasts asked for meanwhile show, in order, once it is in; the Toaster island mounts its
 * container then (`onToastsLoaded`), and react-toastify shows the toasts it queued before a container was there.
 */
type Toastify = typeof import("react-toastify");
let library: Toastify | null = null;
let loading: Promise<Toastify> | null = null;
const loadedListeners = new Set<() => void>();

/** Fetches react-toastify (once). */
export function loadToasts(): Promise<Toastify> {
  loading ??= import("react-toastify").then((module) => {
    library = module;
    for (const listener of loadedListeners) listener();
    return module;
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** react-toastify when it is in, else null. */
export function toastLibrary(): Toastify | null {
  return library;
}

/** Calls `listener` once react-toastify is in; returns the unsubscribe. */
export function onToastsLoaded(listener: () => void): () => void {
  loadedListeners.add(listener);
  return () => loadedListeners.delete(listener);
}

/** Runs `action` with react-toastify's `toast`: at once when it is in, else once it is (in call order). */
function withToasts(action: (toastify: Toastify["toast"]) => void) {
  if (library) action(library.toast);
  else loadToasts().then((module) => action(module.toast), () => {});
}

let counter = 0;

/** Puts a toast up (once react-toastify is in) under its own id, which is returned at once. */
function show(kind: "success" | "error" | "info" | "warning", message: string, options?: ToastOptions): Id {
  const toastId = options?.toastId ?? `toast-${++counter}`;
  withToasts((t) => t[kind](message, { ...options, toastId }));
  return toastId;
}

/** Toasts: bottom-centre, 5000 ms (set on the Toaster island); loading toasts stay. Each returns its id. */
export const toast = {
  success: (message: string, options?: ToastOptions) => show("success", message, options),
  error: (message: string, options?: ToastOptions) => show("error", message, options),
  info: (message: string, options?: ToastOptions) => show("info", message, options),
  warning: (message: string, options?: ToastOptions) => show("warning", message, options),
  loading: (message: string): Id => {
    const toastId = `toast-${++counter}`;
    withToasts((t) => t.loading(message, { autoClose: false, toastId }));
    return toastId;
  },
  dismiss: (id?: string | number) => withToasts((t) => t.dismiss(id)),
};

export type ToastKind = "success" | "error" | "info" | "warning";

/**
 * One place on screen for the toasts of a batch of work: `show` puts a toast up, or rewrites the one still
 * showing, so ten files give one toast that changes rather than ten stacked over the page.
 */
export function toastSlot() {
  let id: Id | null = null;
  // While react-toastify is still loading, the slot's toasts collapse into the last one asked for: the
  // library cannot yet tell that the first is showing, and would stack a second beside it.
  let latest: { kind: ToastKind; message: string; autoClose: number | false } | null = null;
  return {
    /** `keep`: the toast stays until shown again without it (the batch is still running). */
    show(kind: ToastKind, message: string, options: { keep?: boolean } = {}) {
      const waiting = latest !== null;
      latest = { kind, message, autoClose: options.keep ? false : TOAST_AUTO_CLOSE_MS };
      if (waiting) return;
      withToasts((toastify) => {
        const { kind, message, autoClose } = latest!;
        latest = null;
        if (id !== null && toastify.isActive(id)) {
          toastify.update(id, { render: message, type: kind, isLoading: false, autoClose });
        } else {
          // A fresh id each time: the library drops a new toast whose id is still leaving the screen.
          id = toastify[kind](message, { autoClose });
        }
      });
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
