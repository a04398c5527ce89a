import { useEffect, useState } from "react";
import { onToastsLoaded, TOAST_AUTO_CLOSE_MS, toastLibrary } from "../lib/toast.ts";

/**
 * The one toast area of the page: bottom-centre, 5000 ms, light or dark as the system. react-toastify arrives
 * with the first toast (lib/toast.ts); until then, and on the server, the area is empty.
 */
export default function Toaster() {
  const [theme, setTheme] = useState<"light" | "dark">("light");
  const [library, setLibrary] = useState(toastLibrary);
  useEffect(() => onToastsLoaded(() => setLibrary(toastLibrary())), []);
  useEffect(() => {
    const query = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
    if (!query) return;
    const update = () => setTheme(query.matches ? "dark" : "light");
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  if (!library) return null;
  const { Bounce, ToastContainer } = library;
  return (
    <ToastContainer
      position="bottom-center"
      autoClose={TOAST_AUTO_CLOSE_MS}
      theme={theme}
      transition={Bounce}
      newestOnTop
      closeOnClick
      pauseOnFocusLoss
    />
  );
}
