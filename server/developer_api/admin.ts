import type { Deps } from "../deps.ts";
import type { V1Router } from "./router.ts";

/** The developer API's admin calls (docs: /api/docs). */
export function adminRoutesV1(_router: V1Router, _deps: Deps): void {
}
