import { useTranslation } from "react-i18next";
import { InvitesScreen } from "../features/admin/invites/InvitesScreen.tsx";
import { SingleUserNotice } from "../features/admin/SingleUserNotice.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/**
 * /settings/invites: invitation links that let others create an account
 * (docs/api-compat.md#single-sign-on-and-invitations).
 */
export default function Invites() {
  const { t } = useTranslation();
  return (
    <SettingsPage page="invites">
      {(setup) =>
        setup.MultiUserMode
          ? <InvitesScreen invitesOff={setup.SimpleSSONoLogin === true} />
          : <SingleUserNotice text={t("invites.singleUser")} />}
    </SettingsPage>
  );
}
