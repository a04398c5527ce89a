/** Who may open a page (docs/api-compat.md#page-routes-and-page-guards). */
export type Guard = "public" | "any" | "adminOrManager" | "admin";

export const WORKSPACE_SETTINGS_TABS = [
  "general-appearance",
  "chat-settings",
  "vector-database",
  "members",
  "agent-config",
] as const;
export type WorkspaceSettingsTab = (typeof WORKSPACE_SETTINGS_TABS)[number];

export const ONBOARDING_STEPS = [
  "home",
  "llm-preference",
  "user-setup",
  "data-handling",
  "survey",
  "create-workspace",
] as const;
/** Legacy sub-routes that still answer. */
export const LEGACY_ONBOARDING_STEPS = ["embedding-preference", "vector-database"] as const;

/** Instance settings pages, keyed by their path under /settings. */
export const SETTINGS_PAGES = {
  "llm-preference": "adminOrManager",
  "transcription-preference": "adminOrManager",
  "audio-preference": "adminOrManager",
  "embedding-preference": "adminOrManager",
  "text-splitter-preference": "adminOrManager",
  "vector-database": "adminOrManager",
  "agents": "adminOrManager",
  "event-logs": "adminOrManager",
  "embed-config": "adminOrManager",
  "embed-chats": "adminOrManager",
  "privacy": "adminOrManager",
  "beta-features": "adminOrManager",
  "api-keys": "adminOrManager",
  "beta-features/live-document-sync/manage": "adminOrManager",
  "security": "admin",
  "appearance": "admin",
  "browser-extension": "admin",
  "workspace-chats": "admin",
  "invites": "admin",
  "users": "admin",
  "workspaces": "admin",
} as const satisfies Record<string, Guard>;
export type SettingsPage = keyof typeof SETTINGS_PAGES;

/**
 * The settings menu, grouped as the reference groups it. Only pages that are built are listed: a page of the
 * route table that is not here answers 404 until the issue that builds it adds it to its group.
 */
export const SETTINGS_MENU = [
  {
    group: "aiProviders",
    pages: [
      "llm-preference",
      "transcription-preference",
      "audio-preference",
      "embedding-preference",
      "text-splitter-preference",
      "vector-database",
    ],
  },
  { group: "agents", pages: ["agents"] },
  { group: "administration", pages: ["users", "workspaces", "workspace-chats", "invites"] },
  { group: "security", pages: ["security", "privacy"] },
  { group: "customization", pages: ["appearance"] },
  { group: "tools", pages: ["event-logs", "embed-config", "embed-chats", "api-keys", "browser-extension"] },
  { group: "experimental", pages: ["beta-features", "beta-features/live-document-sync/manage"] },
] as const satisfies readonly { group: string; pages: readonly SettingsPage[] }[];
export type BuiltSettingsPage = (typeof SETTINGS_MENU)[number]["pages"][number];
export const BUILT_SETTINGS_PAGES: readonly BuiltSettingsPage[] = SETTINGS_MENU.flatMap((entry) =>
  entry.pages
);

/**
 * Who sees a page's entry in the settings menu, where it is narrower than the page's guard: the API keys and
 * event logs pages keep the reference's guard (admin or manager), but only an admin may use them (the
 * reference's calls are admin-only), so only an admin is offered them.
 */
const MENU_GUARDS: Partial<Record<SettingsPage, Guard>> = {
  "api-keys": "admin",
  "event-logs": "admin",
  // The agents screen's calls are admin-only (settings:manage).
  "agents": "admin",
};
export function menuGuard(page: SettingsPage): Guard {
  return MENU_GUARDS[page] ?? SETTINGS_PAGES[page];
}

/** The least restrictive guard among some pages: who sees a menu group at all. */
export function loosestGuard(guards: readonly Guard[]): Guard {
  const order: Guard[] = ["public", "any", "adminOrManager", "admin"];
  return order[Math.min(...guards.map((guard) => order.indexOf(guard)))] ?? "admin";
}

/**
 * Why a visitor was sent to the login screen by their own step (an instance change, an accepted invitation), so
 * the screen can say so: the query flag `reason` of /login.
 */
export const LOGIN_REASONS = ["multi-user-enabled", "password-set", "account-created"] as const;
export type LoginReason = (typeof LOGIN_REASONS)[number];

/** The `reason` query flag of /login, when it is one the login screen explains. */
export function loginReason(value: string | null | undefined): LoginReason | null {
  return LOGIN_REASONS.find((reason) => reason === value) ?? null;
}

export const paths = {
  home: () => "/",
  login: (reason?: LoginReason) => (reason ? `/login?reason=${reason}` : "/login"),
  workspace: (slug: string) => `/workspace/${encodeURIComponent(slug)}`,
  thread: (slug: string, threadSlug: string) =>
    `/workspace/${encodeURIComponent(slug)}/t/${encodeURIComponent(threadSlug)}`,
  workspaceSettings: (slug: string, tab: WorkspaceSettingsTab = "general-appearance") =>
    `/workspace/${encodeURIComponent(slug)}/settings/${tab}`,
  /** Only pages that are built can be linked to. */
  settings: (page: BuiltSettingsPage) => `/settings/${page}`,
  onboarding: (step?: string) => (step ? `/onboarding/${step}` : "/onboarding"),
};
