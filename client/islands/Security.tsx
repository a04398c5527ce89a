import { useTranslation } from "react-i18next";
import { paths } from "../../shared/routes.ts";
import { EnableMultiUser } from "../features/admin/security/EnableMultiUser.tsx";
import { PasswordProtection } from "../features/admin/security/PasswordProtection.tsx";
import { OidcSettings } from "../features/admin/security/OidcSettings.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/** /settings/security: the instance password and multi-user mode; in multi-user mode, OpenID Connect login. */
export default function Security() {
  const { t } = useTranslation();
  return (
    <SettingsPage page="security">
      {(setup) =>
        setup.MultiUserMode
          ? (
            <>
              <section className="card admin-card" aria-labelledby="multi-user-on">
                <h2 id="multi-user-on">{t("security.multiUserOn.heading")}</h2>
                <p>{t("security.multiUserOn.text")}</p>
                <div className="form-actions start">
                  <a className="button primary" href={paths.settings("users")}>
                    {t("security.multiUserOn.users")}
                  </a>
                  <a className="button secondary" href={paths.settings("invites")}>
                    {t("security.multiUserOn.invites")}
                  </a>
                </div>
              </section>
              <OidcSettings setup={setup} />
            </>
          )
          : (
            <>
              <PasswordProtection requiresAuth={setup.RequiresAuth} />
              <EnableMultiUser passwordLoginOff={setup.SimpleSSONoLogin === true} />
            </>
          )}
    </SettingsPage>
  );
}
