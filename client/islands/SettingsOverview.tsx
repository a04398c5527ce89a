import { useTranslation } from "react-i18next";
import { SETTINGS_PAGES, type SettingsPage as Page } from "../../shared/routes.ts";
import { OverviewState } from "../features/settings/OverviewState.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";

type Props = { page: string };

/** A settings area without a form of its own: what it manages and the instance's current state. */
export default function SettingsOverview({ page }: Props) {
  const { t, i18n } = useTranslation();
  const known = Object.hasOwn(SETTINGS_PAGES, page) ? page as Page : "privacy";
  const listsKey = `settings.pages.${known}.lists`;
  return (
    <SettingsPage
      page={known}
      notice={i18n.exists(listsKey) ? <p className="overview-lists">{t(listsKey)}</p> : undefined}
    >
      {(setup) => <OverviewState page={known} setup={setup} />}
    </SettingsPage>
  );
}
