import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SettingsPage as Page } from "../../../shared/routes.ts";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { type SetupResults, useSetup } from "./setup.ts";

type Props = {
  page: Page;
  /** Shown under the description, before the instance's settings have loaded. */
  notice?: ReactNode;
  children: (setup: SetupResults) => ReactNode;
};

/** A settings screen: its title and what the area manages, then the content once the settings have loaded. */
export function SettingsPage({ page, notice, children }: Props) {
  const { t } = useTranslation();
  const { setup, error } = useSetup();
  return (
    <div className="settings-page">
      <header className="settings-header">
        <h1>{t(`settings.pages.${page}.title`)}</h1>
        <p className="muted">{t(`settings.pages.${page}.description`)}</p>
      </header>
      {notice}
      {error && <p className="form-error" role="alert">{t("settings.loadFailed", { error })}</p>}
      {!error && !setup && <LoadingBlock label={t("common.loading")} />}
      {setup && children(setup)}
    </div>
  );
}
