import { type LoginReason, paths } from "../../../../shared/routes.ts";
import { clearSession } from "../../../lib/auth.ts";

/**
 * After a change that makes every visitor sign in: forget the stored session and open the login screen,
 * which says why when given a `reason`.
 */
export function signInAgain(reason?: LoginReason) {
  clearSession();
  globalThis.location.assign(paths.login(reason));
}
