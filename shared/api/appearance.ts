import * as z from "zod";
import { TextSplitterPreferences } from "./embedding.ts";

/** The icons a footer link may show (the reference's footer icon names). */
export const FOOTER_ICONS = [
  "BookOpen",
  "DiscordLogo",
  "GithubLogo",
  "Envelope",
  "LinkSimple",
  "HouseLine",
  "Globe",
  "Briefcase",
  "Info",
] as const;
export type FooterIcon = (typeof FOOTER_ICONS)[number];

/** At most this many footer links (the reference keeps the first 3). */
export const MAX_FOOTER_LINKS = 3;
export const MAX_APP_NAME = 80;
export const MAX_PAGE_TITLE = 200;
export const MAX_WELCOME_MESSAGES = 20;
export const MAX_WELCOME_MESSAGE_LENGTH = 2000;
/** The largest logo file accepted. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp", "image/svg+xml"] as const;

/** An http(s) address, nothing else (no javascript:, data: or file: links). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export const FooterLink = z.object({
  icon: z.enum(FOOTER_ICONS, { error: `The icon must be one of ${FOOTER_ICONS.join(", ")}.` }),
  url: z.string({ error: "A footer link needs a url." }).trim().max(2000, "A footer link is too long.")
    .refine(isHttpUrl, "A footer link must be an http:// or https:// address."),
});
export type FooterLink = z.infer<typeof FooterLink>;

export const FooterLinks = z.array(FooterLink, { error: "footer_data must be a list of links." })
  .max(MAX_FOOTER_LINKS, `At most ${MAX_FOOTER_LINKS} footer links are allowed.`);

/** The stored `footer_data` label as links; anything unreadable is no links. */
export function readFooterLinks(stored: string | null | undefined): FooterLink[] {
  try {
    const parsed = FooterLinks.safeParse(JSON.parse(stored ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Text or nothing: null, "" and blanks clear the label. */
const optionalText = (max: number, tooLong: string) =>
  z.union([z.string(), z.null()], { error: "must be text or null." }).optional()
    .transform((value) => value === undefined ? undefined : (value ?? "").trim())
    .pipe(z.string().max(max, tooLong).optional());

/**
 * The appearance labels of `POST /api/admin/system-preferences`. An empty value (or null) clears a label.
 * `footer_data` is the JSON text of the links, as the reference's client sends it (a list is taken too).
 */
export const AppearanceFields = {
  custom_app_name: optionalText(MAX_APP_NAME, `The app name can be at most ${MAX_APP_NAME} characters.`),
  support_email: optionalText(320, "The support email is too long.").refine(
    (value) => !value || z.email().safeParse(value).success,
    "The support email must be an email address.",
  ),
  footer_data: z.unknown().optional().transform((value, context) => {
    if (value === undefined) return undefined;
    let links: unknown = value ?? [];
    if (typeof value === "string") {
      try {
        links = value.trim() === "" ? [] : JSON.parse(value);
      } catch {
        context.addIssue({
          code: "custom",
          message: "footer_data must be the JSON text of a list of links.",
        });
        return z.NEVER;
      }
    }
    const parsed = FooterLinks.safeParse(links);
    if (!parsed.success) {
      context.addIssue({
        code: "custom",
        message: parsed.error.issues[0]?.message ?? "Invalid footer links.",
      });
      return z.NEVER;
    }
    return parsed.data;
  }),
  meta_page_title: optionalText(
    MAX_PAGE_TITLE,
    `The page title can be at most ${MAX_PAGE_TITLE} characters.`,
  ),
  // The pages load images from the instance only (their Content-Security-Policy), so a favicon elsewhere
  // could never show: only clearing it is accepted.
  meta_page_favicon: optionalText(2000, "The favicon address is too long.").refine(
    (value) => !value,
    "A favicon from another address is not offered by Lectern: its pages load images from the instance only.",
  ),
};

/**
 * `POST /api/admin/system-preferences` (and the developer API's `/v1/admin/preferences`): the text splitter and
 * the appearance labels, one set of rules. Any other label is refused.
 */
export const SystemPreferences = z.strictObject({ ...TextSplitterPreferences.shape, ...AppearanceFields }, {
  error: (issue) =>
    issue.code === "unrecognized_keys"
      ? `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${
        issue.keys.map((key) => `"${key}"`).join(", ")
      }.`
      : undefined,
});
export type SystemPreferences = z.infer<typeof SystemPreferences>;

export const WelcomeMessage = z.object({
  user: z.string().max(MAX_WELCOME_MESSAGE_LENGTH, "A welcome message is too long.").nullish()
    .transform((value) => value?.trim() ?? ""),
  response: z.string().max(MAX_WELCOME_MESSAGE_LENGTH, "A welcome message is too long.").nullish()
    .transform((value) => value?.trim() ?? ""),
});
export type WelcomeMessage = { user: string; response: string };

/**
 * `POST /api/system/set-welcome-messages`: entries with neither text are dropped, as the reference does. The list
 * is required (`[]` clears it): a body without it must not wipe the saved messages.
 */
export const WelcomeMessagesInput = z.object({
  messages: z.array(WelcomeMessage, { error: "Invalid message format. Expected an array of messages." })
    .max(MAX_WELCOME_MESSAGES, `At most ${MAX_WELCOME_MESSAGES} welcome messages are allowed.`)
    .transform((messages) => messages.filter((message) => message.user !== "" || message.response !== "")),
});

export const WelcomeMessagesAnswer = z.object({
  success: z.boolean(),
  welcomeMessages: z.array(z.object({ user: z.string(), response: z.string() })),
});

export const IsDefaultLogoAnswer = z.object({
  isDefaultLogo: z.boolean(),
  light: z.boolean(),
  dark: z.boolean(),
  version: z.string().nullable(),
});
export type IsDefaultLogoAnswer = z.infer<typeof IsDefaultLogoAnswer>;

// In shared/logo.ts, without zod, for the logo every page shows.
export { type LogoInfo, logoUrl } from "../logo.ts";
