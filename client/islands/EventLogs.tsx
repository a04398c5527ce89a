import { useTranslation } from "react-i18next";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { usePermission } from "../features/auth/use_permission.ts";
import { EventLogsScreen } from "../features/event_logs/EventLogsScreen.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

/**
 * /settings/event-logs. The page is open to managers (the spec's route table), but only an admin may read or
 * clear the log (the reference's guard on its calls), so a manager sees one sentence.
 */
export default function EventLogs() {
  const { t } = useTranslation();
  const allowed = usePermission("settings:manage");
  return (
    <SettingsPage page="event-logs">
      {() =>
        allowed === null
          ? <LoadingBlock label={t("common.loading")} />
          : allowed
          ? <EventLogsScreen />
          : <p className="notice" role="note">{t("eventLogs.adminOnly")}</p>}
    </SettingsPage>
  );
}
