import type { WorkspaceRole } from "../../../shared/roles.ts";

/** A member as the members editor holds it until saved. */
export interface EditedMember {
  userId: number;
  username: string | null;
  role: WorkspaceRole;
}

export function setMemberRole(members: readonly EditedMember[], userId: number, role: WorkspaceRole) {
  return members.map((member) => member.userId === userId ? { ...member, role } : member);
}

export function removeMember(members: readonly EditedMember[], userId: number) {
  return members.filter((member) => member.userId !== userId);
}

/** Adds a user as a viewer (the least role), sorted by name as the server lists them; once only. */
export function addMember(members: readonly EditedMember[], user: { id: number; username: string | null }) {
  if (members.some((member) => member.userId === user.id)) return [...members];
  const added: EditedMember = { userId: user.id, username: user.username, role: "viewer" };
  return [...members, added].sort((a, b) => (a.username ?? "").localeCompare(b.username ?? ""));
}
