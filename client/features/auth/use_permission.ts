import { useEffect, useState } from "react";
import { allows, type Permission } from "../../../shared/roles.ts";
import { type AuthDecision, pageAuth, readSession, type StoredUser } from "../../lib/auth.ts";

/** Whether the visitor this auth check found may do `permission` (shared/roles.ts, as the server decides). */
export function decisionAllows(decision: AuthDecision, permission: Permission): boolean {
  if (decision.state !== "authenticated") return false;
  // Without accounts the visitor owns the instance and may do everything an admin may.
  if (!decision.multiUser) return true;
  return decision.user !== null && allows(decision.user.role, permission);
}

/** Whether the stored user may do `permission` when the auth check could not answer; no stored user: yes. */
export function storedUserAllows(user: StoredUser | null, permission: Permission): boolean {
  return user === null || allows(user.role, permission);
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
      () => storedUserAllows(readSession().user, permission),
    ).then((value) => {
      if (live) setAllowed(value);
    });
    return () => {
      live = false;
    };
  }, [permission]);
  return allowed;
}
