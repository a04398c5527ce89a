import { useEffect, useState } from "react";
import { paths } from "../../../shared/routes.ts";

/** The id of the form each step renders; the shell's forward arrow submits it. */
export const STEP_FORM_ID = "onboarding-step";

/** Every onboarding step is its own server-rendered page. */
export function goToStep(step: string) {
  globalThis.location.assign(paths.onboarding(step));
}

/** The value once it has stopped changing for `delay` ms (spec 01 §5: onboarding inputs, 500 ms). */
export function useDebounced<T>(value: T, delay = 500): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
