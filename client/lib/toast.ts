import { toast as toastify, type ToastOptions } from "react-toastify";

/** Toasts of spec 01 §9: bottom-centre, 5000 ms (set on the Toaster island); loading toasts stay. */
export const toast = {
  success: (message: string, options?: ToastOptions) => toastify.success(message, options),
  error: (message: string, options?: ToastOptions) => toastify.error(message, options),
  info: (message: string, options?: ToastOptions) => toastify.info(message, options),
  warning: (message: string, options?: ToastOptions) => toastify.warning(message, options),
  loading: (message: string) => toastify.loading(message, { autoClose: false }),
  dismiss: (id?: string | number) => toastify.dismiss(id),
};
