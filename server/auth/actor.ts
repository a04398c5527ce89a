import type { Role } from "../../shared/roles.ts";

/** The caller of a request, resolved once by the auth guard. */
export interface Actor {
  /** Null in single-user mode, where there are no accounts. */
  userId: number | null;
  /** In single-user mode the visitor can do everything an admin can. */
  role: Role;
  multiUser: boolean;
}

export const SINGLE_USER_ACTOR: Actor = Object.freeze({ userId: null, role: "admin", multiUser: false });
