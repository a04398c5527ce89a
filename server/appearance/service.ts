import type { Deps } from "../deps.ts";
import { LABELS } from "../settings/service.ts";
import {
  type FooterLink,
  readFooterLinks,
  type SystemPreferences,
  type WelcomeMessage,
} from "../../shared/api/appearance.ts";
import { checkedLogo, type LogoTheme, readLogo, removeLogo, storeLogo } from "./logo.ts";

type SettingsDeps = Pick<Deps, "settings">;

/** What the pages show of the instance's branding, read from the settings (public data). */
export interface Branding {
  /** The custom app name, or null for the product's own. */
  customAppName: string | null;
  /** The browser tab title's suffix instead of the app name (`meta_page_title`), or null. */
  pageTitle: string | null;
  footerLinks: FooterLink[];
  supportEmail: string | null;
  /** A custom logo: the query that changes with it (cache busting) and whether a dark variant exists. */
  logo: { version: string; dark: boolean } | null;
}

/** A short stamp of a stored logo's name: it changes with every upload, so a page's logo URL does too. */
const stampOf = (filename: string | undefined) => filename?.replace(/^logo-/, "").slice(0, 8) ?? "";

export function branding(deps: SettingsDeps): Branding {
  const label = (name: string) => deps.settings.label(name)?.trim() || null;
  const light = deps.settings.label(LABELS.logoFilename);
  const dark = deps.settings.label(LABELS.logoDarkFilename);
  const custom = light || dark;
  return {
    customAppName: label(LABELS.customAppName),
    pageTitle: label(LABELS.metaPageTitle),
    footerLinks: readFooterLinks(deps.settings.label(LABELS.footerData)),
    supportEmail: label(LABELS.supportEmail),
    logo: custom ? { version: `${stampOf(light)}${stampOf(dark)}`, dark: Boolean(dark) } : null,
  };
}

/** Saves the appearance labels of `POST /api/admin/system-preferences`; a label left out keeps its value. */
export async function saveAppearancePreferences(
  deps: SettingsDeps,
  input: SystemPreferences,
): Promise<string[]> {
  const values: Record<string, string | null> = {};
  const text = (value: string | undefined) => value === undefined ? undefined : value === "" ? null : value;
  const set = (label: string, value: string | null | undefined) => {
    if (value !== undefined) values[label] = value;
  };
  set(LABELS.customAppName, text(input.custom_app_name));
  set(LABELS.supportEmail, text(input.support_email));
  set(LABELS.metaPageTitle, text(input.meta_page_title));
  if (input.meta_page_favicon !== undefined) set("meta_page_favicon", null);
  if (input.footer_data !== undefined) set(LABELS.footerData, JSON.stringify(input.footer_data));
  return Object.keys(values).length > 0 ? await deps.settings.setLabels(values) : [];
}

export function welcomeMessages(deps: SettingsDeps): WelcomeMessage[] {
  try {
    const parsed = JSON.parse(deps.settings.label(LABELS.welcomeMessages) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry) => entry && typeof entry === "object").map((entry) => ({
      user: typeof entry.user === "string" ? entry.user : "",
      response: typeof entry.response === "string" ? entry.response : "",
    }));
  } catch {
    return [];
  }
}

export async function saveWelcomeMessages(deps: SettingsDeps, messages: WelcomeMessage[]): Promise<void> {
  await deps.settings.setLabels({
    [LABELS.welcomeMessages]: messages.length > 0 ? JSON.stringify(messages) : null,
  });
}

const themeLabel = (theme: LogoTheme) => theme === "dark" ? LABELS.logoDarkFilename : LABELS.logoFilename;

/** Checks and stores an uploaded logo for a theme, replacing (and deleting) the one before. */
export async function setLogo(deps: Pick<Deps, "settings" | "paths">, bytes: Uint8Array, theme: LogoTheme) {
  const filename = await storeLogo(deps.paths.assets, await checkedLogo(bytes));
  const before = deps.settings.label(themeLabel(theme));
  await deps.settings.setLabels({ [themeLabel(theme)]: filename });
  await removeLogo(deps.paths.assets, before);
}

/** Removes one variant, or (no theme) both custom logos: the default logo shows again. */
export async function unsetLogo(deps: Pick<Deps, "settings" | "paths">, theme: LogoTheme | null) {
  const themes: LogoTheme[] = theme ? [theme] : ["light", "dark"];
  const before = themes.map((entry) => deps.settings.label(themeLabel(entry)));
  await deps.settings.setLabels(Object.fromEntries(themes.map((entry) => [themeLabel(entry), null])));
  for (const filename of before) await removeLogo(deps.paths.assets, filename);
}

/** The custom logo for a theme: the dark variant when asked and present, else the main one; null: the default. */
export async function customLogo(deps: Pick<Deps, "settings" | "paths">, theme: LogoTheme) {
  const light = deps.settings.label(LABELS.logoFilename);
  const dark = deps.settings.label(LABELS.logoDarkFilename);
  const order = theme === "dark" ? [dark, light] : [light, dark];
  for (const filename of order) {
    const logo = await readLogo(deps.paths.assets, filename);
    if (logo) return logo;
  }
  return null;
}
