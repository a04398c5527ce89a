import { type LoginReason, paths } from "../../../../shared/routes.ts";
import { clearSession } from "../../../lib/auth.ts";

/**
 * After a change that makes every visitor sign in: forget the stored session and open the login screen,
 * which says why (`reason`) instead of greeting the admin with a bare form.
 */
export function signInAgain(reason: LoginReason) {
  clearSession();
  globalThis.location.assign(paths.login(reason));
}
