export const ROLES = ["admin", "manager", "default"] as const;
export type Role = (typeof ROLES)[number];

/** Who may do what, read by the server's guards and by the UI to hide what a role cannot use. */
export const PERMISSIONS = {
  "settings:manage": ["admin"],
  "workspace:create": ["admin", "manager"],
  "workspace:manage": ["admin", "manager"],
  "documents:manage": ["admin", "manager"],
  "workspace:chat": ["admin", "manager", "default"],
  "users:manage": ["admin", "manager"],
  // Only an admin creates or invites users; a pending invite code is as good as an account.
  "users:create": ["admin"],
  // The embed widgets' screens (spec 02's route table: admin or manager).
  "embeds:manage": ["admin", "manager"],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof PERMISSIONS;

export function allows(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/**
 * A member's role in one workspace: a viewer chats (threads, chats, its own history), an editor also manages
 * the workspace's documents and settings, an owner also its members (server/workspaces/access.ts).
 */
export const WORKSPACE_ROLES = ["viewer", "editor", "owner"] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Whether `role` reaches `least` (owner > editor > viewer). */
export function workspaceRoleReaches(role: WorkspaceRole | null, least: WorkspaceRole): boolean {
  return role !== null && WORKSPACE_ROLES.indexOf(role) >= WORKSPACE_ROLES.indexOf(least);
}
