import { type Context, Hono } from "hono";
import type { ComponentType } from "react";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { LABELS } from "../settings/service.ts";
import { LOCALE_FILES, requestLanguage } from "./language.ts";
import {
  BUILT_SETTINGS_PAGES,
  type BuiltSettingsPage,
  LEGACY_ONBOARDING_STEPS,
  loginReason,
  ONBOARDING_STEPS,
  SETTINGS_PAGES,
  WORKSPACE_SETTINGS_TABS,
} from "../../shared/routes.ts";
import { Island } from "./island.tsx";
import { AppShell, BareShell, SHELL_ISLANDS } from "./shell.tsx";
import { documentRenderer } from "./layout.tsx";
import Home from "../../client/islands/Home.tsx";
import Login from "../../client/islands/Login.tsx";
import SsoLanding from "../../client/islands/SsoLanding.tsx";
import AcceptInvite from "../../client/islands/AcceptInvite.tsx";
import WorkspaceChat from "../../client/islands/WorkspaceChat.tsx";
import WorkspaceSettings from "../../client/islands/WorkspaceSettings.tsx";
import Onboarding from "../../client/islands/Onboarding.tsx";
import LlmPreference from "../../client/islands/LlmPreference.tsx";
import EmbeddingPreference from "../../client/islands/EmbeddingPreference.tsx";
import TranscriptionPreference from "../../client/islands/TranscriptionPreference.tsx";
import AudioPreference from "../../client/islands/AudioPreference.tsx";
import TextSplitter from "../../client/islands/TextSplitter.tsx";
import VectorDatabase from "../../client/islands/VectorDatabase.tsx";
import Privacy from "../../client/islands/Privacy.tsx";
import SettingsMenu from "../../client/islands/SettingsMenu.tsx";
import Users from "../../client/islands/Users.tsx";
import Invites from "../../client/islands/Invites.tsx";
import Security from "../../client/islands/Security.tsx";
import BetaFeatures from "../../client/islands/BetaFeatures.tsx";
import LiveSyncManage from "../../client/islands/LiveSyncManage.tsx";
import Agents from "../../client/islands/Agents.tsx";
import ApiKeys from "../../client/islands/ApiKeys.tsx";
import BrowserExtension from "../../client/islands/BrowserExtension.tsx";
import EventLogs from "../../client/islands/EventLogs.tsx";
import WorkspaceChats from "../../client/islands/WorkspaceChats.tsx";
import EmbedConfig from "../../client/islands/EmbedConfig.tsx";
import EmbedChats from "../../client/islands/EmbedChats.tsx";
import Workspaces from "../../client/islands/Workspaces.tsx";
import Appearance from "../../client/islands/Appearance.tsx";
import { branding } from "../appearance/service.ts";

const APP_NAME = "Lectern";

/** The island of every settings page in the menu; the other pages of the route table are not built yet. */
const SETTINGS_SCREENS: Record<
  BuiltSettingsPage,
  { name: string; component: ComponentType<Record<string, never>> }
> = {
  "llm-preference": { name: "LlmPreference", component: LlmPreference },
  "embedding-preference": { name: "EmbeddingPreference", component: EmbeddingPreference },
  "transcription-preference": { name: "TranscriptionPreference", component: TranscriptionPreference },
  "audio-preference": { name: "AudioPreference", component: AudioPreference },
  "text-splitter-preference": { name: "TextSplitter", component: TextSplitter },
  "vector-database": { name: "VectorDatabase", component: VectorDatabase },
  "security": { name: "Security", component: Security },
  "invites": { name: "Invites", component: Invites },
  "users": { name: "Users", component: Users },
  "beta-features": { name: "BetaFeatures", component: BetaFeatures },
  "beta-features/live-document-sync/manage": { name: "LiveSyncManage", component: LiveSyncManage },
  "privacy": { name: "Privacy", component: Privacy },
  "api-keys": { name: "ApiKeys", component: ApiKeys },
  "event-logs": { name: "EventLogs", component: EventLogs },
  "workspace-chats": { name: "WorkspaceChats", component: WorkspaceChats },
  "embed-config": { name: "EmbedConfig", component: EmbedConfig },
  "embed-chats": { name: "EmbedChats", component: EmbedChats },
  "workspaces": { name: "Workspaces", component: Workspaces },
  "appearance": { name: "Appearance", component: Appearance },
  "browser-extension": { name: "BrowserExtension", component: BrowserExtension },
  "agents": { name: "Agents", component: Agents },
};

/**
 * Every built route of shared/routes.ts as a server-rendered page whose islands hydrate. Routes
 * whose screens are not built yet (/fine-tuning and the settings pages missing from SETTINGS_MENU) are 404.
 */
export function pagesApp(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const appName = () => deps.settings.label(LABELS.customAppName) || APP_NAME;
  // A text in the page's language (language.ts), for what the server alone renders: titles, the 404 page.
  const t = (c: Context<AppEnv>, key: string) => LOCALE_FILES.i18n(requestLanguage(c)).t(key);
  // What every app-shell page shows around its content: the name, and what the account menu can offer.
  const shell = () => ({
    appName: appName(),
    brand: { logo: branding(deps).logo, footerLinks: branding(deps).footerLinks },
    account: {
      supportEmail: deps.settings.label(LABELS.supportEmail)?.trim() || null,
      sessions: deps.settings.requiresAuth,
    },
  });
  // Browser tabs show the admin's page title (Settings → Appearance) where one is set, else the app name.
  app.use("*", documentRenderer(deps.assets, () => branding(deps).pageTitle || appName()));
  const notFound = (c: Context<AppEnv>) => {
    c.status(404);
    return c.render(
      <BareShell>
        <div className="page-message">
          <h1>{t(c, "pages.notFound.title")}</h1>
          <p>{t(c, "pages.notFound.body")}</p>
          <a className="button primary" href="/">{t(c, "common.backHome")}</a>
        </div>
      </BareShell>,
      { title: t(c, "pages.notFound.title"), islands: ["Toaster"], guard: "public" },
    );
  };

  app.get("/", (c) =>
    c.render(
      <AppShell {...shell()}>
        <Island name="Home" component={Home} props={{ appName: appName() }} />
      </AppShell>,
      { title: t(c, "pages.home.title"), islands: [...SHELL_ISLANDS, "Home"], guard: "any" },
    ));

  app.get("/login", (c) =>
    c.render(
      <BareShell>
        <Island
          name="Login"
          component={Login}
          props={{
            appName: appName(),
            logo: branding(deps).logo,
            newToken: c.req.query("nt") === "1",
            reason: loginReason(c.req.query("reason")),
          }}
        />
      </BareShell>,
      { title: t(c, "pages.login.title"), islands: ["Toaster", "Login"], guard: "public" },
    ));

  app.get("/sso/simple", (c) =>
    c.render(
      <BareShell>
        <Island
          name="SsoLanding"
          component={SsoLanding}
          props={{ token: c.req.query("token") ?? null, redirectTo: c.req.query("redirectTo") ?? "/" }}
        />
      </BareShell>,
      { title: t(c, "pages.sso.title"), islands: ["Toaster", "SsoLanding"], guard: "public" },
    ));

  // The end of an OpenID Connect login (server/oidc/routes.ts): a one-time token, or why it was refused.
  app.get("/sso/oidc", (c) =>
    c.render(
      <BareShell>
        <Island
          name="SsoLanding"
          component={SsoLanding}
          props={{
            token: c.req.query("token") ?? null,
            redirectTo: c.req.query("redirectTo") ?? "/",
            via: "oidc",
            errorCode: c.req.query("error") ?? null,
          }}
        />
      </BareShell>,
      { title: t(c, "pages.sso.title"), islands: ["Toaster", "SsoLanding"], guard: "public" },
    ));

  app.get("/accept-invite/:code", (c) =>
    c.render(
      <BareShell>
        <Island name="AcceptInvite" component={AcceptInvite} props={{ code: c.req.param("code") }} />
      </BareShell>,
      { title: t(c, "pages.acceptInvite.title"), islands: ["Toaster", "AcceptInvite"], guard: "public" },
    ));

  const workspacePage = (c: Context<AppEnv>, slug: string, threadSlug: string | null) =>
    c.render(
      <AppShell {...shell()} activeSlug={slug} activeThreadSlug={threadSlug}>
        <Island name="WorkspaceChat" component={WorkspaceChat} props={{ slug, threadSlug }} />
      </AppShell>,
      { title: t(c, "pages.workspace.title"), islands: [...SHELL_ISLANDS, "WorkspaceChat"], guard: "any" },
    );
  app.get("/workspace/:slug", (c) => workspacePage(c, c.req.param("slug"), null));
  app.get(
    "/workspace/:slug/t/:threadSlug",
    (c) => workspacePage(c, c.req.param("slug"), c.req.param("threadSlug")),
  );

  app.get("/workspace/:slug/settings/:tab", (c) => {
    const tab = c.req.param("tab");
    if (!(WORKSPACE_SETTINGS_TABS as readonly string[]).includes(tab)) return notFound(c);
    const slug = c.req.param("slug");
    return c.render(
      <AppShell {...shell()} activeSlug={slug}>
        <Island name="WorkspaceSettings" component={WorkspaceSettings} props={{ slug, tab }} />
      </AppShell>,
      {
        title: t(c, `workspaceSettings.tabs.${tab}`),
        islands: [...SHELL_ISLANDS, "WorkspaceSettings"],
        // Any user: the island shows the tabs the visitor's role in this workspace allows (the server checks).
        guard: "any",
      },
    );
  });

  const onboardingPage = (c: Context<AppEnv>, step: string) =>
    c.render(
      <BareShell>
        <Island name="Onboarding" component={Onboarding} props={{ step, appName: appName() }} />
      </BareShell>,
      { title: t(c, "pages.onboarding.title"), islands: ["Toaster", "Onboarding"], guard: "public" },
    );
  app.get("/onboarding", (c) => onboardingPage(c, "home"));
  app.get("/onboarding/:step", (c) => {
    const step = c.req.param("step");
    const known = [...ONBOARDING_STEPS, ...LEGACY_ONBOARDING_STEPS] as readonly string[];
    return known.includes(step) ? onboardingPage(c, step) : notFound(c);
  });

  for (const page of BUILT_SETTINGS_PAGES) {
    const screen = SETTINGS_SCREENS[page];
    app.get(`/settings/${page}`, (c) =>
      c.render(
        <AppShell {...shell()}>
          <div className="settings-layout">
            <Island name="SettingsMenu" component={SettingsMenu} props={{ current: page }} />
            <div className="settings-content">
              <Island name={screen.name} component={screen.component} props={{}} />
            </div>
          </div>
        </AppShell>,
        {
          title: t(c, `settings.pages.${page}.title`),
          islands: [...SHELL_ISLANDS, "SettingsMenu", screen.name],
          guard: SETTINGS_PAGES[page],
        },
      ));
  }

  app.notFound(notFound);
  return app;
}
