import { useTranslation } from "react-i18next";
import { SingleUserNotice } from "../features/admin/SingleUserNotice.tsx";
import { UsersScreen } from "../features/admin/users/UsersScreen.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/users: the accounts of a multi-user instance. */
export default function Users() {
  const { t } = useTranslation();
  return (
    <SettingsPage page="users">
      {(setup) =>
        setup.MultiUserMode
          ? <UsersScreen loginLinks={setup.SimpleSSOEnabled === true} />
          : <SingleUserNotice text={t("users.singleUser.text")} />}
    </SettingsPage>
  );
}
