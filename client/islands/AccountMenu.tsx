import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useDismiss } from "../components/use_dismiss.ts";
import { paths } from "../../shared/routes.ts";
import { AccountModal } from "../features/auth/AccountModal.tsx";
import { fetchSupportEmail, useProfilePicture } from "../features/auth/account_api.ts";
import { initials } from "../features/auth/ProfilePictureField.tsx";
import { clearSession, pageAuth, readSession, type StoredUser } from "../lib/auth.ts";

type Props = Record<string, never>;
/** `session`: whether there is a session to end: never on an open single-user instance. */
type Session = { multiUser: boolean; user: StoredUser | null; session: boolean };

/** The session the page guard let in; when it could not ask the server, what is stored. */
async function currentSession(): Promise<Session> {
  try {
    const decision = await pageAuth();
    if (decision.state === "authenticated") {
      return { multiUser: decision.multiUser, user: decision.user, session: decision.session };
    }
  } catch {
    // The guard already reported it; fall back to the stored session.
  }
  const { user, token } = readSession();
  return { multiUser: !!user, user, session: !!token };
}

function signOut() {
  clearSession();
  globalThis.location.assign(paths.home());
}

/**
 * The account menu at the top right of the app shell (spec 01 §2.5): the avatar (profile picture, the first two
 * letters of the username, or AA) opens Account (multi-user mode only), Support (only when a support address
 * is set) and Sign out (only when there is a session to end). With none of them there is no avatar. It stays
 * invisible until both are known, so no entry appears and then goes.
 */
export default function AccountMenu(_props: Props) {
  const { t } = useTranslation();
  const [session, setSession] = useState<Session | null>(null);
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  // undefined until asked; null when the instance has no support address.
  const [supportEmail, setSupportEmail] = useState<string | null | undefined>(undefined);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const user = session?.multiUser ? session.user : null;
  const picture = useProfilePicture(user?.id ?? null);

  useEffect(() => {
    currentSession().then(setSession);
    fetchSupportEmail().then(setSupportEmail);
  }, []);
  useDismiss(open, close, root, button);

  const ready = session !== null && supportEmail !== undefined;
  if (ready && !user && !supportEmail && !session.session) return null;

  return (
    <div className={`account-menu${ready ? "" : " pending"}`} ref={root}>
      <button
        ref={button}
        type="button"
        className="avatar account-avatar"
        aria-label={t("account.menu.label")}
        aria-expanded={open}
        disabled={!ready}
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
          {session?.session && (
            <button type="button" className="account-menu-item" onClick={signOut}>
              {t("account.menu.signOut")}
            </button>
          )}
        </div>
      )}
      {editing && user && (
        <AccountModal
          user={user}
          picture={picture}
          onPictureChange={picture.reload}
          onSaved={(saved) => {
            setSession({ multiUser: true, user: saved, session: true });
            setEditing(false);
          }}
          onClose={() => setEditing(false)}
        />
      )}
    </div>
  );
}
