import { useEffect, useState } from "react";
import { allows, type Permission } from "../../../shared/roles.ts";
import { type AuthDecision, pageAuth, readSession } from "../../lib/auth.ts";

/** Whether the visitor this auth check found may do `permission` (shared/roles.ts, as the server decides). */
function decisionAllows(decision: AuthDecision, permission: Permission): boolean {
  if (decision.state !== "authenticated") return false;
  // Without accounts the visitor owns the instance and may do everything an admin may.
  if (!decision.multiUser) return true;
  return decision.user !== null && allows(decision.user.role, permission);
}

/**
 * Whether the visitor may do `permission`: null until the page's auth check has answered (as the server renders
 * it), so a control that needs the permission is neither shown nor fired before it is known. When the check
 * cannot reach the server, the stored user's role decides.
 */
export function usePermission(permission: Permission): boolean | null {
  const [allowed, setAllowed] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    pageAuth().then(
      (decision) => decisionAllows(decision, permission),
      () => {
        const { user } = readSession();
        return user === null || allows(user.role, permission);
      },
    ).then((value) => {
      if (live) setAllowed(value);
    });
    return () => {
      live = false;
    };
  }, [permission]);
  return allowed;
}
