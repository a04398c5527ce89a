import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { OwnerMembersAnswer } from "../../../shared/api/admin.ts";
import { WORKSPACE_ROLES, type WorkspaceRole } from "../../../shared/roles.ts";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";
import { addMember, type EditedMember, removeMember, setMemberRole } from "./members.ts";

/**
 * Multi-user mode: the workspace's members, each with a role (viewer, editor, owner) to choose, a user to add,
 * and whether every user may chat in it ("visible to all users"). Saved together through the owners' call
 * `POST /api/workspace/:slug/members` (admins and managers are owners of every workspace).
 */
export function MembersPanel({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const [members, setMembers] = useState<EditedMember[] | null>(null);
  const [users, setUsers] = useState<OwnerMembersAnswer["users"]>([]);
  const [visibleToAll, setVisibleToAll] = useState(false);
  const [adding, setAdding] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `/workspace/${encodeURIComponent(slug)}/members`;

  const show = useCallback((answer: OwnerMembersAnswer) => {
    setMembers(answer.members);
    setUsers(answer.users);
    setVisibleToAll(answer.visibleToAll);
  }, []);

  useEffect(() => {
    api(path, { schema: OwnerMembersAnswer }).then(show).catch((caught) => {
      setError(messageOf(caught));
      toast.error(t("workspaceRoles.loadFailed", { error: messageOf(caught) }));
    });
  }, [path, show, t]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !members) return;
    setBusy(true);
    try {
      const json = { members: members.map(({ userId, role }) => ({ userId, role })), visibleToAll };
      show(await api(path, { json, schema: OwnerMembersAnswer }));
      toast.success(t("workspaceRoles.saved"));
    } catch (caught) {
      toast.error(t("workspaceRoles.saveFailed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  if (error) return <p className="form-error" role="alert">{t("workspaceRoles.loadFailed", { error })}</p>;
  if (!members) return <span className="muted">{t("common.loading")}</span>;
  const candidates = users.filter((user) => !members.some((member) => member.userId === user.id));
  const nameOf = (member: { userId: number; username: string | null }) =>
    member.username ?? `#${member.userId}`;
  return (
    <form className="members form" onSubmit={submit} aria-label={t("workspaceRoles.heading")}>
      <p className="muted small">{t("workspaceRoles.rolesHint")}</p>
      {members.length === 0
        ? <p className="muted">{t("workspaceRoles.none")}</p>
        : (
          <ul className="member-list">
            {members.map((member) => (
              <li key={member.userId} className="member-row">
                <span className="user-name">{nameOf(member)}</span>
                <select
                  aria-label={t("workspaceRoles.roleOf", { name: nameOf(member) })}
                  value={member.role}
                  disabled={busy}
                  onChange={(event) =>
                    setMembers(setMemberRole(members, member.userId, event.target.value as WorkspaceRole))}
                >
                  {WORKSPACE_ROLES.map((role) => (
                    <option key={role} value={role}>{t(`workspaceRoles.roles.${role}`)}</option>
                  ))}
                </select>
                <button
                  type="button"
                  className="button secondary small-button"
                  disabled={busy}
                  aria-label={t("workspaceRoles.removeLabel", { name: nameOf(member) })}
                  onClick={() => setMembers(removeMember(members, member.userId))}
                >
                  {t("workspaceRoles.remove")}
                </button>
              </li>
            ))}
          </ul>
        )}
      {candidates.length > 0 && (
        <div className="member-add">
          <select
            aria-label={t("workspaceRoles.addLabel")}
            value={adding}
            disabled={busy}
            onChange={(event) => setAdding(event.target.value)}
          >
            <option value="">{t("workspaceRoles.addPlaceholder")}</option>
            {candidates.map((user) => (
              <option key={user.id} value={String(user.id)}>{user.username ?? `#${user.id}`}</option>
            ))}
          </select>
          <button
            type="button"
            className="button secondary"
            disabled={busy || adding === ""}
            onClick={() => {
              const user = candidates.find((candidate) => String(candidate.id) === adding);
              if (user) setMembers(addMember(members, user));
              setAdding("");
            }}
          >
            {t("workspaceRoles.add")}
          </button>
        </div>
      )}
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={visibleToAll}
          disabled={busy}
          onChange={(event) => setVisibleToAll(event.target.checked)}
        />
        <span>{t("workspaceRoles.visibleToAll")}</span>
      </label>
      <p className="muted small">{t("workspaceRoles.visibleToAllHint")}</p>
      <div className="form-actions start">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t("workspaceRoles.saving") : t("workspaceRoles.save")}
        </button>
      </div>
    </form>
  );
}
