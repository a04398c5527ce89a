import { useTranslation } from "react-i18next";
import type { User } from "../../../../shared/api/auth.ts";
import type { Role } from "../../../../shared/roles.ts";
import { formatDate } from "../../dates.ts";
import { assignableRoles, displayName, rowControls } from "./permissions.ts";

export type RowActions = {
  onRole: (user: User, role: Role) => void;
  onSuspend: (user: User) => void;
  onResetPassword: (user: User) => void;
  onLoginLink: (user: User) => void;
  onDelete: (user: User) => void;
};

type Props = RowActions & {
  user: User;
  me: User;
  /** Whether the server issues login links (SIMPLE_SSO_ENABLED set), as setup-complete reported it. */
  loginLinks: boolean;
  busy: boolean;
};

/** One account: a table row on wide screens, a card on phones (admin.css). */
export function UserRow({ user, me, loginLinks, busy, ...actions }: Props) {
  const { t } = useTranslation();
  const name = displayName(user);
  const self = user.id === me.id;
  const controls = rowControls(me, user, loginLinks);
  const manageable = controls.manage;
  const suspended = Boolean(user.suspended);
  const roleName = (role: Role) => t(`users.roles.${role}`);

  return (
    <tr className={suspended ? "suspended" : undefined}>
      <td data-label={t("users.table.username")}>
        <span className="user-name">{name}</span>
        {self && <span className="badge">{t("users.table.you")}</span>}
      </td>
      <td data-label={t("users.table.role")}>
        {manageable
          ? (
            <select
              className="select role-select"
              aria-label={t("users.table.roleOf", { name })}
              value={user.role}
              disabled={busy}
              onChange={(event) => actions.onRole(user, event.target.value as Role)}
            >
              {assignableRoles(me).map((role) => <option key={role} value={role}>{roleName(role)}</option>)}
            </select>
          )
          : roleName(user.role)}
      </td>
      <td data-label={t("users.table.created")}>{formatDate(user.createdAt)}</td>
      <td data-label={t("users.table.status")}>
        <span className={`status-badge ${suspended ? "off" : "on"}`}>
          {suspended ? t("users.status.suspended") : t("users.status.active")}
        </span>
      </td>
      <td data-label={t("users.table.actions")}>
        <div className="row-actions">
          {manageable && (
            <button
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => actions.onSuspend(user)}
            >
              {suspended ? t("users.actions.unsuspend") : t("users.actions.suspend")}
            </button>
          )}
          {controls.resetPassword && (
            <button
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => actions.onResetPassword(user)}
            >
              {t("users.actions.resetPassword")}
            </button>
          )}
          {controls.loginLink && (
            <button
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => actions.onLoginLink(user)}
            >
              {t("users.actions.loginLink")}
            </button>
          )}
          {manageable && (
            <button
              type="button"
              className="button danger"
              disabled={busy}
              onClick={() => actions.onDelete(user)}
            >
              {t("users.actions.delete")}
            </button>
          )}
          {controls.adminOnlyNote && <span className="muted small">{t("users.table.adminOnly")}</span>}
        </div>
      </td>
    </tr>
  );
}
