import { paths } from "../../../../shared/routes.ts";
import { clearSession } from "../../../lib/auth.ts";

/** After a change that makes every visitor sign in: forget the stored session and open the login screen. */
export function signInAgain() {
  clearSession();
  globalThis.location.assign(paths.login());
}
