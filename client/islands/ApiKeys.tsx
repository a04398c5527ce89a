import { useTranslation } from "react-i18next";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { ApiKeysScreen } from "../features/api_keys/ApiKeysScreen.tsx";
import { usePermission } from "../features/auth/use_permission.ts";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/**
 * /settings/api-keys: the developer API's keys. The page is open to managers (the reference's guard), but only
 * an admin may list or make keys (the server answers 403 to a manager), so a manager sees one sentence.
 */
export default function ApiKeys() {
  const { t } = useTranslation();
  const allowed = usePermission("settings:manage");
  return (
    <SettingsPage page="api-keys">
      {(setup) =>
        allowed === null
          ? <LoadingBlock label={t("common.loading")} />
          : allowed
          ? <ApiKeysScreen multiUser={setup.MultiUserMode} />
          : <p className="notice" role="note">{t("apiKeys.adminOnly")}</p>}
    </SettingsPage>
  );
}
