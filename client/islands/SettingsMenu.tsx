import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type BuiltSettingsPage,
  loosestGuard,
  menuGuard,
  paths,
  SETTINGS_MENU,
} from "../../shared/routes.ts";

type Props = { current: BuiltSettingsPage };

/**
 * The instance settings menu, in groups. Entries a role may not open carry `data-requires` with their guard;
 * the page guard marks <html data-role> before the page shows, so they are hidden without a flash. On a phone
 * the menu folds into one row that names the current page and opens the whole menu.
 */
export default function SettingsMenu({ current }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <nav className={`settings-nav${open ? " open" : ""}`} aria-label={t("settings.navLabel")}>
      <button
        type="button"
        className="settings-nav-toggle"
        aria-expanded={open}
        aria-controls="settings-menu"
        onClick={() => setOpen(!open)}
      >
        <span className="settings-nav-toggle-label">{t("settings.navLabel")}</span>
        <span className="settings-nav-current">{t(`settings.pages.${current}.title`)}</span>
        <span aria-hidden="true" className="settings-nav-chevron">{open ? "▴" : "▾"}</span>
      </button>
      <div id="settings-menu" className="settings-menu">
        {SETTINGS_MENU.map(({ group, pages }) => (
          <section
            key={group}
            className="settings-group"
            data-requires={loosestGuard(pages.map(menuGuard))}
            aria-labelledby={`settings-group-${group}`}
          >
            <h2 className="settings-group-heading" id={`settings-group-${group}`}>
              {t(`settings.groups.${group}`)}
            </h2>
            <ul>
              {pages.map((page) => (
                <li key={page} data-requires={menuGuard(page)}>
                  <a
                    href={paths.settings(page)}
                    className={page === current ? "active" : undefined}
                    aria-current={page === current ? "page" : undefined}
                  >
                    {t(`settings.pages.${page}.title`)}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );
}
