import { paths } from "../../../shared/routes.ts";

export { useDebounced } from "../settings/use_debounced.ts";

/** The id of the form each step renders; the shell's forward arrow submits it. */
export const STEP_FORM_ID = "onboarding-step";

/** Every onboarding step is its own server-rendered page. */
export function goToStep(step: string) {
  globalThis.location.assign(paths.onboarding(step));
}
