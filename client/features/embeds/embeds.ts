import {
  DEFAULT_EMBED_MESSAGE_LIMIT,
  EMBED_WIDGET_SCRIPT,
  type EmbedChatMode,
  embedOrigin,
  type EmbedView,
  MAX_EMBED_CHATS,
  MAX_EMBED_MESSAGE_LIMIT,
  parseAllowlist,
} from "../../../shared/api/embeds.ts";

/** What the create and edit dialog holds, as typed. */
export interface EmbedForm {
  workspaceId: string;
  chatMode: EmbedChatMode;
  /** One domain per line or comma-separated. */
  domains: string;
  maxChatsPerDay: string;
  maxChatsPerSession: string;
  messageLimit: string;
  allowModelOverride: boolean;
  allowTemperatureOverride: boolean;
  allowPromptOverride: boolean;
}

export function emptyEmbedForm(workspaceId = ""): EmbedForm {
  return {
    workspaceId,
    chatMode: "query",
    domains: "",
    maxChatsPerDay: "",
    maxChatsPerSession: "",
    messageLimit: String(DEFAULT_EMBED_MESSAGE_LIMIT),
    allowModelOverride: false,
    allowTemperatureOverride: false,
    allowPromptOverride: false,
  };
}

export function formOf(embed: EmbedView): EmbedForm {
  return {
    workspaceId: String(embed.workspace_id),
    chatMode: embed.chat_mode,
    domains: parseAllowlist(embed.allowlist_domains).join("\n"),
    maxChatsPerDay: embed.max_chats_per_day === null ? "" : String(embed.max_chats_per_day),
    maxChatsPerSession: embed.max_chats_per_session === null ? "" : String(embed.max_chats_per_session),
    messageLimit: embed.message_limit === null ? "" : String(embed.message_limit),
    allowModelOverride: embed.allow_model_override,
    allowTemperatureOverride: embed.allow_temperature_override,
    allowPromptOverride: embed.allow_prompt_override,
  };
}

/** The domains as typed, split on commas, spaces and line breaks. */
export function typedDomains(text: string): string[] {
  return text.split(/[\s,]+/).map((item) => item.trim()).filter((item) => item !== "");
}

export type EmbedFormProblems = Partial<
  Record<
    "workspaceId" | "domains" | "maxChatsPerDay" | "maxChatsPerSession" | "messageLimit",
    { key: "noWorkspace" | "badDomain" | "wholeNumber"; value?: string | number }
  >
>;

function limitProblem(text: string, max: number) {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^\d+$/.test(trimmed) && Number(trimmed) <= max
    ? undefined
    : { key: "wholeNumber" as const, value: max };
}

/** The form's problems (the server's own rules, NewEmbedBody, checked before sending). */
export function embedFormProblems(form: EmbedForm): EmbedFormProblems {
  const problems: EmbedFormProblems = {};
  if (!/^\d+$/.test(form.workspaceId)) problems.workspaceId = { key: "noWorkspace" };
  const bad = typedDomains(form.domains).find((domain) => embedOrigin(domain) === null);
  if (bad !== undefined) problems.domains = { key: "badDomain", value: bad };
  const day = limitProblem(form.maxChatsPerDay, MAX_EMBED_CHATS);
  if (day) problems.maxChatsPerDay = day;
  const session = limitProblem(form.maxChatsPerSession, MAX_EMBED_CHATS);
  if (session) problems.maxChatsPerSession = session;
  const history = limitProblem(form.messageLimit, MAX_EMBED_MESSAGE_LIMIT);
  if (history) problems.messageLimit = history;
  return problems;
}

const limitOf = (text: string) => (text.trim() === "" ? null : Number(text.trim()));

/** The body of `POST /api/embeds/new` and `POST /api/embed/update/:id`. */
export function embedBody(form: EmbedForm) {
  const domains = typedDomains(form.domains);
  return {
    workspace_id: Number(form.workspaceId),
    chat_mode: form.chatMode,
    allowlist_domains: domains.length > 0 ? domains : null,
    max_chats_per_day: limitOf(form.maxChatsPerDay),
    max_chats_per_session: limitOf(form.maxChatsPerSession),
    message_limit: form.messageLimit.trim() === "" ? DEFAULT_EMBED_MESSAGE_LIMIT : Number(form.messageLimit),
    allow_model_override: form.allowModelOverride,
    allow_temperature_override: form.allowTemperatureOverride,
    allow_prompt_override: form.allowPromptOverride,
  };
}

/** The tag a web site adds to show the widget: this instance's API and the widget's script. */
export function embedSnippet(uuid: string, origin: string): string {
  return `<script data-embed-id="${uuid}" data-base-api-url="${origin}/api/embed" src="${origin}${EMBED_WIDGET_SCRIPT}"></script>`;
}

/** The text of a stored answer (JSON `{text, …}`), or the raw value when it is not JSON. */
export function answerText(response: string): string {
  try {
    const parsed = JSON.parse(response);
    return typeof parsed?.text === "string" ? parsed.text : "";
  } catch {
    return response;
  }
}

/** The visitor's site and address as the server recorded them. */
export function connectionOf(
  value: string | null,
): { host: string | null; ip: string | null; username: string | null } {
  try {
    const parsed = JSON.parse(value ?? "{}");
    const text = (field: unknown) => (typeof field === "string" && field !== "" ? field : null);
    return { host: text(parsed?.host), ip: text(parsed?.ip), username: text(parsed?.username) };
  } catch {
    return { host: null, ip: null, username: null };
  }
}

export const EMBED_EXPORT_TYPES = ["csv", "json", "jsonl", "jsonAlpaca"] as const;

/** The export of every embed chat (the reference's call, with `chatType=embed`). */
export function embedExportPath(type: (typeof EMBED_EXPORT_TYPES)[number]): string {
  return `/system/export-chats?type=${type}&chatType=embed`;
}
