import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useDismiss } from "../components/use_dismiss.ts";
import { paths } from "../../shared/routes.ts";
import { useProfilePicture } from "../features/auth/account_api.ts";
import { initials } from "../features/auth/ProfilePictureField.tsx";
import { clearSession, pageAuth, readSession, type StoredUser } from "../lib/auth.ts";

// The account modal opens on request; its code (and the language picker's) is not in the page's first load.
const AccountModal = lazy(() =>
  import("../features/auth/AccountModal.tsx").then((module) => ({ default: module.AccountModal }))
);

/**
 * What the server knows when it renders the page: the support address, if one is set, and whether visitors sign
 * in at all (an instance password or multi-user mode), so that there is a session to end.
 */
export type AccountMenuProps = { supportEmail: string | null; sessions: boolean };
type Session = { multiUser: boolean; user: StoredUser | null };

/** The session the page guard let in; when it could not ask the server, what is stored. */
async function currentSession(): Promise<Session> {
  try {
    const decision = await pageAuth();
    if (decision.state === "authenticated") {
      return { multiUser: decision.multiUser, user: decision.user };
    }
  } catch {
    // The guard already reported it; fall back to the stored session.
  }
  const { user } = readSession();
  return { multiUser: !!user, user };
}

function signOut() {
  clearSession();
  globalThis.location.assign(paths.home());
}

/**
 * The account menu at the top right of the app shell: the avatar (profile picture, the first two
 * letters of the username, or AA) opens Account (multi-user mode only), Support (only when a support address
 * is set) and Sign out (only when visitors sign in). An open instance without a support address has nothing to
 * offer, so the server renders no avatar at all and no header keeps room for one.
 */
export default function AccountMenu({ supportEmail, sessions }: AccountMenuProps) {
  const { t } = useTranslation();
  const [session, setSession] = useState<Session | null>(null);
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const user = session?.multiUser ? session.user : null;
  const picture = useProfilePicture(user?.id ?? null);

  useEffect(() => {
    if (sessions || supportEmail) currentSession().then(setSession);
  }, [sessions, supportEmail]);
  useDismiss(open, close, root, button);

  if (!sessions && !supportEmail) return null;
  return (
    <div className="account-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="avatar account-avatar"
        aria-label={t("account.menu.label")}
        aria-expanded={open}
        disabled={session === null}
        aria-controls={open ? "account-menu-items" : undefined}
        onClick={() => setOpen(!open)}
      >
        {picture.url
          ? <img src={picture.url} alt="" />
          : <span aria-hidden="true">{session ? initials(user?.username) : ""}</span>}
      </button>
      {open && (
        <div id="account-menu-items" className="account-menu-items">
          {user && (
            <button
              type="button"
              className="account-menu-item"
              onClick={() => {
                setOpen(false);
                setEditing(true);
              }}
            >
              {t("account.menu.account")}
            </button>
          )}
          {supportEmail && (
            <a className="account-menu-item" href={`mailto:${supportEmail}`}>{t("account.menu.support")}</a>
          )}
          {sessions && (
            <button type="button" className="account-menu-item" onClick={signOut}>
              {t("account.menu.signOut")}
            </button>
          )}
        </div>
      )}
      {editing && user && (
        <Suspense fallback={null}>
          <AccountModal
            user={user}
            picture={picture}
            onPictureChange={picture.reload}
            onSaved={(saved) => {
              setSession({ multiUser: true, user: saved });
              setEditing(false);
            }}
            onClose={() => setEditing(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
