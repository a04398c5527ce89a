import type { User } from "../../../../shared/api/auth.ts";
import type { Role } from "../../../../shared/roles.ts";

/** The roles in the order the role pickers list them. */
const ROLE_ORDER: readonly Role[] = ["default", "manager", "admin"];

/** The roles `me` may give: a manager may not create or promote admins. */
export function assignableRoles(me: User): readonly Role[] {
  return me.role === "admin" ? ROLE_ORDER : ROLE_ORDER.filter((role) => role !== "admin");
}

/** Whether `me` may change, suspend or delete `target`: a manager may not touch an admin. */
export function mayManage(me: User, target: User): boolean {
  return me.role === "admin" || (me.role === "manager" && target.role !== "admin");
}

/** Only an admin resets passwords and issues login links. */
export function isAdmin(me: User): boolean {
  return me.role === "admin";
}

export function displayName(user: User): string {
  return user.username ?? `#${user.id}`;
}
