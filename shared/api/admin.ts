import * as z from "zod";
import { ROLES, WORKSPACE_ROLES } from "../roles.ts";
import { Password, User, Username } from "./auth.ts";
import { jsonObject, laterChecked } from "./body.ts";

export const UserList = z.object({ users: z.array(User) });

export const NewUserInput = z.object({
  username: Username,
  password: Password,
  role: z.enum(ROLES).default("default"),
  dailyMessageLimit: z.number().int().min(1).nullable().optional(),
  bio: z.string().max(1000).optional(),
});
export const NewUserAnswer = z.object({ user: User.nullable(), error: z.string().nullable() });

/** `POST /api/admin/user/:id`: every field optional; only the ones present change. */
export const UpdateUserInput = z.object({
  username: Username.optional(),
  password: Password.optional(),
  role: z.enum(ROLES).optional(),
  suspended: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  dailyMessageLimit: z.number().int().min(1).nullable().optional(),
  bio: z.string().max(1000).optional(),
});

export const INVITE_STATUSES = ["pending", "claimed", "disabled"] as const;
export const Invite = z.object({
  id: z.number(),
  code: z.string(),
  status: z.enum(INVITE_STATUSES),
  claimedBy: z.number().nullable(),
  workspaceIds: z.array(z.number()),
  createdBy: z.number().nullable(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
});
export type Invite = z.infer<typeof Invite>;
export const InviteList = z.object({ invites: z.array(Invite) });
/** `POST /api/admin/invite/new`: the workspaces the new account joins. */
export const NewInviteInput = z.object({
  workspaceIds: z.array(z.number().int().positive()).max(1000).default([]),
});
/** `POST /api/invite/:code`: the new account (Username and Password, checked once the invite is known good). */
export const AcceptInviteInput = jsonObject({ username: laterChecked, password: laterChecked });
export const NewInviteAnswer = z.object({ invite: Invite.nullable(), error: z.string().nullable() });

/** `GET /api/invite/:code` (public). */
export const InviteLookup = z.object({
  invite: z.object({ code: z.string(), status: z.enum(INVITE_STATUSES) }).nullable(),
  error: z.string().nullable(),
});

export const WorkspaceMember = z.object({
  userId: z.number(),
  username: z.string().nullable(),
  role: z.enum(ROLES),
  lastUpdatedAt: z.string(),
  /** Lectern: the member's role in this workspace (viewer, editor or owner). */
  workspaceRole: z.enum(WORKSPACE_ROLES).optional(),
});
export const WorkspaceMembers = z.object({ users: z.array(WorkspaceMember) });

/** `POST /api/admin/user/:id/issue-auth-token`: a single-use login link valid for 6 minutes. */
export const IssuedAuthToken = z.object({ token: z.string(), loginPath: z.string() });

/**
 * `POST /api/admin/workspaces/:id/update-users`: the whole member list (it replaces the old one). Lectern adds
 * `roles` (a member's workspace role by user id; a member keeps theirs when not named, a new one is a viewer)
 * and `visibleToAll` (every user may chat in the workspace as a viewer).
 */
export const UpdateMembersInput = z.object({
  userIds: z.array(z.number().int().positive()).max(10_000),
  roles: z.record(z.string().regex(/^\d+$/, "must be a user id."), z.enum(WORKSPACE_ROLES)).optional(),
  visibleToAll: z.boolean().optional(),
});

/** `POST /api/workspace/:slug/members` (Lectern, a workspace's owners): its members with their roles. */
export const OwnerMembersInput = z.object({
  members: z.array(z.object({ userId: z.number().int().positive(), role: z.enum(WORKSPACE_ROLES) })).max(
    10_000,
  ),
  visibleToAll: z.boolean().optional(),
});
export type OwnerMembersInput = z.infer<typeof OwnerMembersInput>;

/** `GET /api/workspace/:slug/members`: the members, the visibility, and the users an owner may add. */
export const OwnerMembersAnswer = z.object({
  members: z.array(
    z.object({ userId: z.number(), username: z.string().nullable(), role: z.enum(WORKSPACE_ROLES) }),
  ),
  visibleToAll: z.boolean(),
  users: z.array(z.object({ id: z.number(), username: z.string().nullable() })),
});
export type OwnerMembersAnswer = z.infer<typeof OwnerMembersAnswer>;

/** `GET /api/workspace/:slug/my-role` (Lectern): the caller's role in the workspace, for the screens. */
export const MyWorkspaceRoleAnswer = z.object({ role: z.enum(WORKSPACE_ROLES) });

/**
 * `POST /api/v1/admin/workspaces/:workspaceSlug/manage-users`: users to add to the workspace (ids as numbers or
 * numeric text, as the reference reads them); `reset` replaces the members with them instead.
 */
export const ManageMembersInput = z.object({
  userIds: z.array(
    z.union([z.number().int(), z.string().regex(/^\d+$/, "must be a whole number.")]).transform(Number),
  ).max(10_000),
  reset: z.boolean().default(false),
});
export const ManageMembersAnswer = z.object({
  success: z.boolean(),
  error: z.string().nullable(),
  users: z.array(WorkspaceMember),
});

/** `GET /api/v1/users`: each user's id, name and role only. */
export const UserSummaryList = z.object({
  users: z.array(z.object({ id: z.number(), username: z.string().nullable(), role: z.enum(ROLES) })),
});

/** `POST /api/v1/admin/workspace-chats`: a page of 20 chats of every workspace, the newest first. */
export const ChatsPageInput = jsonObject({
  offset: z.number().int("must be a whole number.").min(0, "must be 0 or more.").max(1_000_000)
    .default(0),
});
/** One stored chat as the reference's admin chat list answers it (its database row and two names). */
export const AdminChat = z.object({
  id: z.number(),
  workspaceId: z.number(),
  prompt: z.string(),
  /** The stored answer JSON, as text (docs/api-compat.md#stored-chat). */
  response: z.string(),
  include: z.boolean(),
  user_id: z.number().nullable(),
  thread_id: z.number().nullable(),
  api_session_id: z.string().nullable(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  feedbackScore: z.boolean().nullable(),
  workspace: z.object({ name: z.string(), slug: z.string().nullable() }),
  user: z.object({ username: z.string() }),
});
export const ChatsPage = z.object({ chats: z.array(AdminChat), hasPages: z.boolean() });
