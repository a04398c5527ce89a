import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../../../../shared/api/auth.ts";
import { IssuedAuthToken, UpdateUserInput, UserList } from "../../../../shared/api/admin.ts";
import type { Role } from "../../../../shared/roles.ts";
import { LoadingBlock } from "../../../components/LoadingBlock.tsx";
import { api, ApiError } from "../../../lib/api.ts";
import { useLatest } from "../../../lib/latest.ts";
import { toast } from "../../../lib/toast.ts";
import { ConfirmDialog } from "../../../components/ConfirmDialog.tsx";
import { useCurrentUser } from "../current_user.ts";
import { act, errorIn, messageOf } from "../requests.ts";
import { AddUserDialog } from "./AddUserDialog.tsx";
import { type IssuedLink, LoginLinkDialog } from "./LoginLinkDialog.tsx";
import { displayName } from "./permissions.ts";
import { ResetPasswordDialog } from "./ResetPasswordDialog.tsx";
import { UserRow } from "./UserRow.tsx";

/**
 * The accounts of a multi-user instance and what the signed-in admin or manager may do with them.
 * `loginLinks`: the server issues single-use login links (simple SSO is enabled).
 */
export function UsersScreen({ loginLinks: offered }: { loginLinks: boolean }) {
  const { t } = useTranslation();
  const viewer = useCurrentUser(true);
  const [users, setUsers] = useState<User[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [link, setLink] = useState<IssuedLink | null>(null);
  const [loginLinks, setLoginLinks] = useState(offered);
  // An answer older than a reload after an action must not bring back what the action changed.
  const order = useLatest();

  const reload = useCallback(async () => {
    const current = order.start();
    try {
      const answer = await api("/admin/users", { schema: UserList });
      if (!current()) return;
      setUsers(answer.users);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
      toast.error(t("users.loadFailed", { error: messageOf(caught) }));
    }
  }, [t]);
  useEffect(() => void reload(), [reload]);

  /** Runs one action on an account, toasts its outcome and shows the list as the server now has it. */
  async function run(user: User, work: () => Promise<string>, failureKey: string) {
    setBusyId(user.id);
    try {
      toast.success(await work());
      await reload();
    } catch (caught) {
      toast.error(t(failureKey, { name: displayName(user), error: messageOf(caught) }));
    } finally {
      setBusyId(null);
    }
  }

  const update = (user: User, changes: Record<string, unknown>, done: string) =>
    run(user, async () => {
      await act(
        `/admin/user/${user.id}`,
        { json: UpdateUserInput.parse(changes) },
        t("users.update.refused"),
      );
      return done;
    }, "users.update.failed");

  const changeRole = (user: User, role: Role) =>
    update(
      user,
      { role },
      t("users.update.roleDone", { name: displayName(user), role: t(`users.roles.${role}`) }),
    );

  const toggleSuspended = (user: User) =>
    user.suspended
      ? update(user, { suspended: false }, t("users.update.unsuspended", { name: displayName(user) }))
      : update(user, { suspended: true }, t("users.update.suspended", { name: displayName(user) }));

  const remove = (user: User) =>
    run(user, async () => {
      await act(`/admin/user/${user.id}`, { method: "DELETE" }, t("users.delete.refused"));
      setDeleting(null);
      return t("users.delete.done", { name: displayName(user) });
    }, "users.delete.failed");

  async function issueLink(user: User) {
    setBusyId(user.id);
    try {
      const body = await api(`/admin/user/${user.id}/issue-auth-token`, { method: "POST" });
      const issued = IssuedAuthToken.safeParse(body);
      if (!issued.success) throw new ApiError(errorIn(body) ?? t("users.link.refused"), 200, body);
      setLink({
        name: displayName(user),
        url: new URL(issued.data.loginPath, globalThis.location.origin).href,
      });
    } catch (caught) {
      // The operator may have turned simple SSO off since this page loaded.
      if (caught instanceof ApiError && caught.status === 403) setLoginLinks(false);
      toast.error(t("users.link.failed", { name: displayName(user), error: messageOf(caught) }));
    } finally {
      setBusyId(null);
    }
  }

  if (viewer.loading || (!users && !loadError)) return <LoadingBlock label={t("users.loading")} />;
  const me = viewer.user;
  if (!me) {
    return <p className="form-error" role="alert">{t("users.whoFailed", { error: viewer.error ?? "" })}</p>;
  }

  return (
    <section className="admin-section" aria-labelledby="users-heading">
      <div className="section-heading">
        <h2 id="users-heading">{t("users.heading", { count: users?.length ?? 0 })}</h2>
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          {t("users.add.open")}
        </button>
      </div>
      {loadError && <p className="form-error" role="alert">{t("users.loadFailed", { error: loadError })}</p>}
      {users && (
        <table className="admin-table">
          <caption className="visually-hidden">{t("users.table.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("users.table.username")}</th>
              <th scope="col">{t("users.table.role")}</th>
              <th scope="col">{t("users.table.created")}</th>
              <th scope="col">{t("users.table.status")}</th>
              <th scope="col">{t("users.table.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                me={me}
                loginLinks={loginLinks}
                busy={busyId === user.id}
                onRole={changeRole}
                onSuspend={toggleSuspended}
                onResetPassword={setResetting}
                onLoginLink={issueLink}
                onDelete={setDeleting}
              />
            ))}
          </tbody>
        </table>
      )}
      <AddUserDialog
        open={adding}
        me={me}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          void reload();
        }}
      />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <LoginLinkDialog link={link} onClose={() => setLink(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("users.delete.title")}
        message={t("users.delete.confirm", { name: deleting ? displayName(deleting) : "" })}
        confirmLabel={t("users.delete.submit")}
        busy={deleting !== null && busyId === deleting.id}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
