import * as z from "zod";

/**
 * Embed widgets (the reference's `embed_configs`): a chat bubble other web sites include with a script tag,
 * answering from one workspace. The admin calls (`/api/embeds`, `/api/embeds/new`, `/api/embed/update/:id`,
 * `/api/embed/:id`, `/api/embed/chats…`) and the public widget calls (`/api/embed/:uuid/stream-chat`,
 * `/api/embed/:uuid/:sessionId`) keep the reference's snake_case fields.
 */

export const EMBED_CHAT_MODES = ["chat", "query"] as const;
export type EmbedChatMode = (typeof EMBED_CHAT_MODES)[number];

/** The most previous messages an embed may give the model (the reference has no bound). */
export const MAX_EMBED_MESSAGE_LIMIT = 1000;
/** The largest chat limit per day or per session. */
export const MAX_EMBED_CHATS = 1_000_000;
/** At most this many allowed domains per embed. */
export const MAX_EMBED_DOMAINS = 100;
/** The reference's default message limit. */
export const DEFAULT_EMBED_MESSAGE_LIMIT = 20;

/** The widget script's path on this instance (built by the widget's own Vite entry). */
export const EMBED_WIDGET_SCRIPT = "/embed/lectern-chat-widget.min.js";

/**
 * A domain as typed (`example.com`, `https://example.com`, `http://localhost:8080`) as the origin a browser
 * sends; null if it is none. The reference adds `https://` when no scheme is given.
 */
export function embedOrigin(value: string): string | null {
  const typed = value.trim();
  if (typed === "") return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (
    url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")
  ) {
    return null;
  }
  return url.origin;
}

const wholeNumber = (field: string, max: number) =>
  z.union([z.number(), z.string(), z.null()], {
    error: `${field} must be a whole number (0 for no limit), or null.`,
  }).transform((value, context) => {
    if (value === null || (typeof value === "string" && value.trim() === "")) return null;
    const number = typeof value === "number" ? value : Number(value.trim());
    if (!Number.isInteger(number) || number < 0) {
      context.addIssue({
        code: "custom",
        message: `${field} must be a whole number (0 for no limit), or null.`,
      });
      return z.NEVER;
    }
    if (number > max) {
      context.addIssue({ code: "custom", message: `${field} must be at most ${max}.` });
      return z.NEVER;
    }
    // The reference keeps 0 and below as "no limit" (null).
    return number === 0 ? null : number;
  });

const flag = (field: string) => z.boolean({ error: `${field} must be true or false.` });

/** `allowlist_domains`: a comma-separated string (the reference's form) or a list; empty or null: any site. */
const AllowlistDomains = z.union([z.string(), z.array(z.string()), z.null()], {
  error: "allowlist_domains must be a list of domains (or a comma-separated string), or null.",
}).transform((value, context) => {
  if (value === null) return null;
  const typed = (typeof value === "string" ? value.split(",") : value).map((item) => item.trim())
    .filter((item) => item !== "");
  if (typed.length > MAX_EMBED_DOMAINS) {
    context.addIssue({
      code: "custom",
      message: `allowlist_domains may name at most ${MAX_EMBED_DOMAINS} domains.`,
    });
    return z.NEVER;
  }
  const origins: string[] = [];
  for (const item of typed) {
    const origin = embedOrigin(item);
    if (origin === null) {
      context.addIssue({
        code: "custom",
        message: `allowlist_domains: "${
          item.slice(0, 100)
        }" is not a web site's address (such as https://example.com).`,
      });
      return z.NEVER;
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins.length > 0 ? origins : null;
});

const WORKSPACE_ID_ERROR = "workspace_id must be the id of a workspace.";
const WorkspaceId = z.union([z.number(), z.string()], { error: WORKSPACE_ID_ERROR }).transform(
  (value, context) => {
    const number = typeof value === "number" ? value : Number(value.trim());
    if (!Number.isInteger(number) || number <= 0 || (typeof value === "string" && value.trim() === "")) {
      context.addIssue({ code: "custom", message: WORKSPACE_ID_ERROR });
      return z.NEVER;
    }
    return number;
  },
);

const embedFields = {
  workspace_id: WorkspaceId,
  chat_mode: z.enum(EMBED_CHAT_MODES, { error: 'chat_mode must be "chat" or "query".' }),
  allowlist_domains: AllowlistDomains,
  allow_model_override: flag("allow_model_override"),
  allow_temperature_override: flag("allow_temperature_override"),
  allow_prompt_override: flag("allow_prompt_override"),
  max_chats_per_day: wholeNumber("max_chats_per_day", MAX_EMBED_CHATS),
  max_chats_per_session: wholeNumber("max_chats_per_session", MAX_EMBED_CHATS),
  message_limit: wholeNumber("message_limit", MAX_EMBED_MESSAGE_LIMIT),
  enabled: flag("enabled"),
};

/**
 * `POST /api/embeds/new`: a workspace is required; the rest default as the reference's (query mode, any site,
 * no overrides, no limits, 20 messages of history, enabled). Each message names its field (`bareMessages`).
 */
export const NewEmbedBody = z.object({
  workspace_id: z.unknown().refine((value) => value !== undefined && value !== null, {
    message: "workspace_id is required: the workspace the widget answers from.",
  }).pipe(embedFields.workspace_id),
  chat_mode: embedFields.chat_mode.default("query"),
  allowlist_domains: embedFields.allowlist_domains.optional().transform((value) => value ?? null),
  allow_model_override: embedFields.allow_model_override.default(false),
  allow_temperature_override: embedFields.allow_temperature_override.default(false),
  allow_prompt_override: embedFields.allow_prompt_override.default(false),
  max_chats_per_day: embedFields.max_chats_per_day.optional().transform((value) => value ?? null),
  max_chats_per_session: embedFields.max_chats_per_session.optional().transform((value) => value ?? null),
  message_limit: embedFields.message_limit.optional().transform((value) =>
    value === undefined ? DEFAULT_EMBED_MESSAGE_LIMIT : value
  ),
  enabled: embedFields.enabled.default(true),
});
export type NewEmbedBody = z.output<typeof NewEmbedBody>;

/** `POST /api/embed/update/:embedId`: any of the fields; others are ignored, as the reference does. */
export const UpdateEmbedBody = z.object({
  workspace_id: embedFields.workspace_id.optional(),
  chat_mode: embedFields.chat_mode.optional(),
  allowlist_domains: embedFields.allowlist_domains.optional(),
  allow_model_override: embedFields.allow_model_override.optional(),
  allow_temperature_override: embedFields.allow_temperature_override.optional(),
  allow_prompt_override: embedFields.allow_prompt_override.optional(),
  max_chats_per_day: embedFields.max_chats_per_day.optional(),
  max_chats_per_session: embedFields.max_chats_per_session.optional(),
  message_limit: embedFields.message_limit.optional(),
  enabled: embedFields.enabled.optional(),
});
export type UpdateEmbedBody = z.output<typeof UpdateEmbedBody>;

/** `POST /api/embed/chats`: the page (the reference's `offset` counts pages) and its size. */
export const EmbedChatsBody = z.object({
  offset: z.number({ error: "offset must be a page number (0 for the first)." }).int().min(0, {
    error: "offset must be a page number (0 for the first).",
  }).default(0),
  limit: z.number({ error: "limit must be a number of chats from 1 to 100." }).int().min(1, {
    error: "limit must be a number of chats from 1 to 100.",
  }).max(100, { error: "limit must be a number of chats from 1 to 100." }).default(20),
});

/** The workspace as the embed screens show it. */
export interface EmbedWorkspace {
  id: number;
  name: string;
  slug: string;
}

/** One embed as `GET /api/embeds` lists it (the reference's row with its workspace and chat count). */
export interface EmbedView {
  id: number;
  uuid: string;
  enabled: boolean;
  chat_mode: EmbedChatMode;
  /** The reference's JSON string of origins, or null for any site. */
  allowlist_domains: string | null;
  allow_model_override: boolean;
  allow_temperature_override: boolean;
  allow_prompt_override: boolean;
  max_chats_per_day: number | null;
  max_chats_per_session: number | null;
  message_limit: number | null;
  workspace_id: number;
  createdBy: number | null;
  usersId: null;
  createdAt: string;
  workspace: EmbedWorkspace;
  _count: { embed_chats: number };
}

/** One chat as `POST /api/embed/chats` lists it. */
export interface EmbedChatView {
  id: number;
  prompt: string;
  /** The stored answer, JSON `{text, sources, type, metrics}`. */
  response: string;
  session_id: string;
  include: boolean;
  /** JSON `{host, ip, username}`. */
  connection_information: string | null;
  embed_id: number;
  usersId: null;
  createdAt: string;
  embed_config: { id: number; uuid: string; workspace: { name: string; slug: string } };
}

export interface EmbedChatsPage {
  chats: EmbedChatView[];
  hasPages: boolean;
  totalChats: number;
}

/**
 * `POST /api/embed/:embedId/stream-chat`, the widget's message: a session id (a UUID the widget keeps per
 * visitor) and the message; `prompt`, `model` and `temperature` count only when the embed allows them.
 */
export const EmbedStreamChatBody = z.object({
  sessionId: z.unknown(),
  message: z.unknown(),
  prompt: z.unknown().optional(),
  model: z.unknown().optional(),
  temperature: z.unknown().optional(),
  username: z.unknown().optional(),
});

/** The domains of an embed, from the reference's JSON string. */
export function parseAllowlist(value: string | null): string[] {
  if (!value) return [];
  try {
    const parsed = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}
