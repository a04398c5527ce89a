import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SettingsPage as Page } from "../../../shared/routes.ts";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { useCurrentUser } from "../admin/current_user.ts";
import { asksViewer, ReadOnlyContext, readOnlyFor } from "./read_only.ts";
import { type SetupResults, useSetup } from "./setup.ts";

type Props = {
  page: Page;
  /** Shown under the description, before the instance's settings have loaded. */
  notice?: ReactNode;
  children: (setup: SetupResults) => ReactNode;
};

/**
 * A settings screen: its title and what the area manages, then the content once the settings have loaded.
 * In multi-user mode a manager opening an admin-only form sees it read-only, with one line saying why.
 */
export function SettingsPage({ page, notice, children }: Props) {
  const { t } = useTranslation();
  const { setup, error } = useSetup();
  const viewer = useCurrentUser(asksViewer(page, setup?.MultiUserMode));
  const readOnly = readOnlyFor(viewer.user);
  return (
    <div className="settings-page">
      <header className="settings-header">
        <h1>{t(`settings.pages.${page}.title`)}</h1>
        <p className="muted">{t(`settings.pages.${page}.description`)}</p>
      </header>
      {notice}
      {readOnly && <p className="notice" role="status">{t("settings.readOnlyNotice")}</p>}
      {error && <p className="form-error" role="alert">{t("settings.loadFailed", { error })}</p>}
      {!error && (!setup || viewer.loading) && <LoadingBlock label={t("common.loading")} />}
      {setup && !viewer.loading && (
        <ReadOnlyContext.Provider value={readOnly}>{children(setup)}</ReadOnlyContext.Provider>
      )}
    </div>
  );
}
