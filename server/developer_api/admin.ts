import type { Context } from "hono";
import * as z from "zod";
import {
  ChatsPage,
  ChatsPageInput,
  InviteList,
  IssuedAuthToken,
  ManageMembersAnswer,
  ManageMembersInput,
  NewInviteAnswer,
  NewInviteInput,
  NewUserAnswer,
  NewUserInput,
  UpdateMembersInput,
  UpdateUserInput,
  UserList,
  UserSummaryList,
  WorkspaceMembers,
} from "../../shared/api/admin.ts";
import { SuccessAnswer } from "../../shared/api/auth.ts";
import { SystemPreferences } from "../../shared/api/appearance.ts";
import { presentUser } from "../auth/present.ts";
import { issueSsoToken } from "../auth/service.ts";
import { chatsPage } from "../chat/all_chats.ts";
import type { Deps } from "../deps.ts";
import { saveSystemPreferences } from "../embedding/preferences.ts";
import { AppError, withErrorBody } from "../errors.ts";
import { parseJson } from "../http/body.ts";
import { createInvite, disableInvite, listInvites, presentInvite } from "../invites/service.ts";
import { listUsers } from "../users/repo.ts";
import { idParam } from "../users/routes.ts";
import { createUser, deleteUser, updateUser } from "../users/service.ts";
import { rolesOf, setWorkspaceMembers, workspaceById, workspaceMembers } from "../workspaces/members.ts";
import { findWorkspace } from "../workspaces/service.ts";
import { needs } from "./access.ts";
import type { V1Router } from "./router.ts";

const MULTI_USER_ONLY =
  "Multi-user mode only: on a single-user instance the call is refused with 401 and the text `Unauthorized`, " +
  "as the reference does.";

/** The reference's refusal of a multi-user call on a single-user instance (`sendStatus(401)`). */
const notMultiUser = (c: Context) => c.text("Unauthorized", 401);

/**
 * The developer API's admin and user calls (docs: /api/docs). An API key acts as the instance's administrator
 * without a user (`actor.userId` null): users and invites it makes have no creator, and the event log names no
 * user. Reading users and members is open to read-only keys (no password hash is ever answered); invites are
 * for full keys only, since a pending code lets anyone make an account; every change needs a full key.
 */
export function adminRoutesV1(router: V1Router, deps: Deps): void {
  const multiUser = () => deps.settings.multiUserMode;

  router.get("/admin/is-multi-user-mode", needs.any, {
    summary: "Is the instance in multi-user mode?",
    description: "The admin calls below work only in multi-user mode, which is turned on in the UI.",
    tag: "Admin",
    response: z.object({ isMultiUser: z.boolean() }),
  }, (c) => c.json({ isMultiUser: multiUser() }));

  router.get("/admin/users", needs.read, {
    summary: "List the users",
    description: `Every account, without its password hash. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    response: UserList,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    return c.json({ users: (await listUsers(deps)).map(presentUser) });
  });

  const newUserBody = (message: string) => ({ user: null, error: message });
  router.post("/admin/users/new", needs.write, {
    summary: "Create a user",
    description: "The username and password follow the same rules as in the UI; the role defaults to " +
      `\`default\`. A refusal answers \`{user: null, error}\` (400, or 409 for a taken username). ${MULTI_USER_ONLY}`,
    tag: "Admin",
    body: NewUserInput,
    response: NewUserAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    const input = await parseJson(c, NewUserInput, newUserBody);
    const user = await withErrorBody(newUserBody, () => createUser(deps, c.var.actor, input));
    return c.json({ user: presentUser(user), error: null });
  });

  router.post("/admin/users/:id", needs.write, {
    summary: "Update a user",
    description: "Only the fields present change. A new password, role or suspension signs the user out " +
      "everywhere. The last active admin cannot be demoted or suspended (400). An unknown id is 404. " +
      MULTI_USER_ONLY,
    tag: "Admin",
    body: UpdateUserInput,
    response: SuccessAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    const id = idParam(c.req.param("id"));
    const input = await parseJson(c, UpdateUserInput);
    await updateUser(deps, c.var.actor, id, input);
    return c.json({ success: true, error: null });
  });

  router.delete("/admin/users/:id", needs.write, {
    summary: "Delete a user",
    description: `The last active admin cannot be deleted (400). An unknown id is 404. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    response: SuccessAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    await deleteUser(deps, c.var.actor, idParam(c.req.param("id")));
    return c.json({ success: true, error: null });
  });

  router.get("/admin/invites", needs.admin, {
    summary: "List the invitations",
    description:
      "Every invitation, whatever its status, the newest first. Full-access keys only: a pending " +
      `code lets anyone create an account. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    response: InviteList,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    return c.json({ invites: (await listInvites(deps)).map(presentInvite) });
  });

  const inviteBody = (message: string) => ({ invite: null, error: message });
  router.post("/admin/invite/new", needs.write, {
    summary: "Create an invitation",
    description:
      "The new account joins the workspaces listed in `workspaceIds` (each must exist). A refusal " +
      `answers \`{invite: null, error}\`. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    body: NewInviteInput,
    response: NewInviteAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    const input = await parseJson(c, NewInviteInput, inviteBody);
    const invite = await withErrorBody(inviteBody, () => createInvite(deps, c.var.actor, input.workspaceIds));
    return c.json({ invite: presentInvite(invite), error: null });
  });

  router.delete("/admin/invite/:id", needs.write, {
    summary: "Disable an invitation",
    description:
      `The code stops working; the invitation stays listed as \`disabled\`. An unknown id is 404. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    response: SuccessAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    await disableInvite(deps, c.var.actor, idParam(c.req.param("id"), "invite"));
    return c.json({ success: true, error: null });
  });

  router.get("/admin/workspaces/:id/users", needs.read, {
    summary: "List a workspace's members",
    description:
      "The users given access to the workspace (admins and managers see every workspace anyway). " +
      `An unknown workspace id is 404. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    response: WorkspaceMembers,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    const workspace = await workspaceById(deps, idParam(c.req.param("id"), "workspace"));
    return c.json({ users: await workspaceMembers(deps, workspace.id) });
  });

  router.post("/admin/workspaces/:id/update-users", needs.write, {
    summary: "Replace a workspace's members (deprecated)",
    description:
      "The workspace's members become exactly `userIds` (each must be an existing user); Lectern " +
      "also takes `roles` (a member's workspace role by user id: viewer, editor or owner; one not named keeps " +
      "theirs, a new one is a viewer) and `visibleToAll`. Prefer " +
      `\`manage-users\`. An unknown workspace id is 404. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    body: UpdateMembersInput,
    response: SuccessAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    const id = idParam(c.req.param("id"), "workspace");
    const input = await parseJson(c, UpdateMembersInput);
    await setWorkspaceMembers(deps, c.var.actor, id, input.userIds, {
      roles: rolesOf(input.roles),
      visibleToAll: input.visibleToAll,
    });
    return c.json({ success: true, error: null });
  });

  router.post("/admin/workspaces/:workspaceSlug/manage-users", needs.write, {
    summary: "Add members to a workspace",
    description: "Adds the existing users among `userIds` to the workspace's members (unknown ids are " +
      "skipped); with `reset: true` they replace the members instead. Answers the members after the change. " +
      `An unknown workspace, or no existing user among the ids, is 404. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    body: ManageMembersInput,
    response: ManageMembersAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    const slug = c.req.param("workspaceSlug");
    const input = await parseJson(c, ManageMembersInput, (error) => ({ success: false, error, users: [] }));
    const workspace = await findWorkspace(deps, c.var.actor, slug);
    if (!workspace) {
      const error = `Workspace ${slug} not found.`;
      throw new AppError("not_found", error, { body: { success: false, error, users: [] } });
    }
    const members = await workspaceMembers(deps, workspace.id);
    const known = new Set((await listUsers(deps)).map((user) => user.id));
    const userIds = input.userIds.filter((id) => known.has(id));
    if (userIds.length === 0) {
      const error = "No valid user IDs provided.";
      throw new AppError("not_found", error, { body: { success: false, error, users: members } });
    }
    const next = input.reset ? userIds : [...members.map((member) => member.userId), ...userIds];
    await setWorkspaceMembers(deps, c.var.actor, workspace.id, next);
    return c.json({ success: true, error: null, users: await workspaceMembers(deps, workspace.id) });
  });

  router.post("/admin/workspace-chats", needs.read, {
    summary: "List every chat, a page at a time",
    description:
      "Every stored chat of every workspace, thread and user (hidden ones too), the newest first, " +
      "20 a page; `offset` is the page number (from 0). `hasPages` says whether a later page exists. Answered " +
      "in single-user mode too, as the reference does.",
    tag: "Admin",
    body: ChatsPageInput,
    response: ChatsPage,
  }, async (c) => {
    const { offset } = await parseJson(c, ChatsPageInput);
    const { chats, hasPages } = await chatsPage(deps, offset);
    return c.json({ chats, hasPages });
  });

  router.post("/admin/preferences", needs.write, {
    summary: "Update the instance's preferences",
    description: "The same labels and rules as the UI's preferences: `text_splitter_chunk_size` and " +
      "`text_splitter_chunk_overlap` (the overlap smaller than the size, the size at most the embedder's " +
      "maximum), and the appearance labels `custom_app_name`, `support_email`, `footer_data` (at most 3 " +
      "`{icon, url}` links, http(s) only), `meta_page_title` and `meta_page_favicon` (only clearing it). An " +
      `empty value clears a label. Any other label is refused with 400 naming it. ${MULTI_USER_ONLY}`,
    tag: "Admin",
    body: SystemPreferences,
    response: SuccessAnswer,
  }, async (c) => {
    if (!multiUser()) return notMultiUser(c);
    await saveSystemPreferences(deps, await parseJson(c, SystemPreferences), c.var.actor.userId);
    return c.json({ success: true, error: null });
  });

  router.get("/users", needs.read, {
    summary: "List the users (id, name and role)",
    description:
      "Multi-user mode only: on a single-user instance the call is refused with 401 and the text " +
      "`Instance is not in Multi-User mode. Permission denied.`, as the reference does.",
    tag: "User Management",
    response: UserSummaryList,
  }, async (c) => {
    if (!multiUser()) return c.text("Instance is not in Multi-User mode. Permission denied.", 401);
    const users = (await listUsers(deps)).map(({ id, username, role }) => ({ id, username, role }));
    return c.json({ users });
  });

  router.get("/users/:id/issue-auth-token", needs.admin, {
    summary: "Issue a sign-in link for a user",
    description:
      "A single-use simple-SSO token for the user, valid 6 minutes (a newer one replaces it); the " +
      "user signs in by opening `loginPath`. Needs `SIMPLE_SSO_ENABLED` and multi-user mode (else 403 with " +
      "the reference's text). An unknown user is 404.",
    tag: "User Management",
    response: IssuedAuthToken,
  }, async (c) => {
    if (!deps.config.simpleSso.enabled) {
      return c.text(
        "Simple SSO is not enabled. It must be enabled to validate or issue temporary auth tokens.",
        403,
      );
    }
    if (!multiUser()) {
      return c.text("Multi-User mode is not enabled. It must be enabled to use Simple SSO.", 403);
    }
    return c.json(
      await withErrorBody((error) => ({ error }), () => issueSsoToken(deps, idParam(c.req.param("id")))),
    );
  });
}
