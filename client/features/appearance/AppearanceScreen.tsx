import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type FooterLink,
  type WelcomeMessage,
  WelcomeMessagesAnswer,
} from "../../../shared/api/appearance.ts";
import { SystemPreferencesAnswer } from "../../../shared/api/embedding.ts";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api } from "../../lib/api.ts";
import { messageOf } from "../admin/requests.ts";
import { parseFooterData } from "./appearance.ts";
import { BrandingSection, type BrandingValues } from "./BrandingSection.tsx";
import { FooterSection } from "./FooterSection.tsx";
import { LogoSection } from "./LogoSection.tsx";
import { PresetsSection } from "./PresetsSection.tsx";
import { WelcomeSection } from "./WelcomeSection.tsx";

const LABELS = "custom_app_name,meta_page_title,support_email,footer_data";

interface Loaded {
  branding: BrandingValues;
  footer: FooterLink[];
  /** The saved welcome messages, or why they could not be read (the section then offers no form to save). */
  welcome: { messages: WelcomeMessage[] } | { error: string };
}

/** Settings → Appearance (admins): logo, names, footer links, support email, welcome messages, presets. */
export function AppearanceScreen() {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      api(`/admin/system-preferences-for?labels=${LABELS}`, {
        schema: SystemPreferencesAnswer,
        signal: controller.signal,
      }),
      // A failure here is the welcome section's own: the rest of the screen still works.
      api("/system/welcome-messages", { schema: WelcomeMessagesAnswer, signal: controller.signal }).then(
        (answer) => ({ messages: answer.welcomeMessages }),
        (caught) => {
          if ((caught as Error).name === "AbortError") throw caught;
          return { error: messageOf(caught) };
        },
      ),
    ]).then(([{ settings }, welcome]) => {
      const text = (value: unknown) => typeof value === "string" ? value : "";
      setLoaded({
        branding: {
          custom_app_name: text(settings.custom_app_name),
          meta_page_title: text(settings.meta_page_title),
          support_email: text(settings.support_email),
        },
        footer: parseFooterData(settings.footer_data),
        welcome,
      });
    }).catch((caught) => {
      if ((caught as Error).name !== "AbortError") setError(messageOf(caught));
    });
    return () => controller.abort();
  }, []);

  if (error) return <p className="form-error" role="alert">{t("appearance.loadFailed", { error })}</p>;
  if (!loaded) return <LoadingBlock label={t("common.loading")} />;
  return (
    <div className="appearance">
      <LogoSection />
      <BrandingSection initial={loaded.branding} />
      <FooterSection initial={loaded.footer} />
      <WelcomeSection loaded={loaded.welcome} />
      <PresetsSection />
    </div>
  );
}
