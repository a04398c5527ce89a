import { useEffect, useState } from "react";
import { Bounce, ToastContainer } from "react-toastify";
import { TOAST_AUTO_CLOSE_MS } from "../lib/toast.ts";

/** The one toast area of the page: bottom-centre, 5000 ms, light or dark as the system. */
export default function Toaster() {
  const [theme, setTheme] = useState<"light" | "dark">("light");
  useEffect(() => {
    const query = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
    if (!query) return;
    const update = () => setTheme(query.matches ? "dark" : "light");
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
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
