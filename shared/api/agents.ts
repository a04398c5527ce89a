import * as z from "zod";

/** The built-in skills, by the reference's ids. The first three are on until turned off; the rest off until on. */
export const AGENT_SKILLS = [
  { id: "rag-memory", defaultOn: true },
  { id: "document-summarizer", defaultOn: true },
  { id: "web-scraping", defaultOn: true },
  { id: "save-file-to-browser", defaultOn: false },
  { id: "create-chart", defaultOn: false },
  { id: "web-browsing", defaultOn: false },
  { id: "sql-agent", defaultOn: false },
] as const;
export type AgentSkillId = (typeof AGENT_SKILLS)[number]["id"];
export const AGENT_SKILL_IDS = AGENT_SKILLS.map((skill) => skill.id) as AgentSkillId[];

export const SEARCH_PROVIDERS = ["none", "searxng-engine", "tavily-search", "brave-search"] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];

/** SQLite and libSQL database files only: PostgreSQL and MySQL are not supported yet. */
export const SQL_ENGINES = ["sqlite"] as const;

/** A database the SQL skill may query; the connection string is never sent back. */
export const SqlConnection = z.object({
  database_id: z.string().trim().min(1, "A connection needs a name.").max(64, "The name is too long.")
    .regex(/^[\w-]+$/, "A connection name may hold letters, digits, - and _ only."),
  engine: z.enum(SQL_ENGINES, "Only SQLite and libSQL database files are supported."),
  connectionString: z.string().trim().max(2000, "The connection string is too long.").optional(),
});
export type SqlConnection = z.infer<typeof SqlConnection>;

/** `GET /api/agents/settings`. */
export interface AgentSettingsView {
  skills: { id: AgentSkillId; active: boolean; ready: boolean }[];
  searchProvider: SearchProvider;
  /** Which search providers have what they need (a URL, a key). */
  searchConfigured: Record<Exclude<SearchProvider, "none">, boolean>;
  sqlConnections: { database_id: string; engine: string }[];
  maxSteps: number;
  timeoutSeconds: number;
  /** Whether an agent can run at all: a provider and model are usable. */
  available: boolean;
}

/** `POST /api/agents/settings`: a field left out keeps its value. */
export const AgentSettingsInput = z.object({
  skills: z.partialRecord(
    z.enum(AGENT_SKILL_IDS as [AgentSkillId, ...AgentSkillId[]], "Unknown agent skill."),
    z.boolean("A skill's active flag must be true or false."),
  ).optional(),
  searchProvider: z.enum(SEARCH_PROVIDERS, "Unknown search provider.").optional(),
  sqlConnections: z.array(SqlConnection).max(20, "At most 20 connections.").optional(),
  maxSteps: z.number("The step limit must be a number.").int("The step limit must be a whole number.")
    .min(1, "The step limit must be at least 1.").max(50, "The step limit is at most 50.").optional(),
  timeoutSeconds: z.number("The time-out must be a number.").int("The time-out must be a whole number.")
    .min(10, "The time-out must be at least 10 seconds.").max(3600, "The time-out is at most 3600 seconds.")
    .optional(),
});
export type AgentSettingsInput = z.infer<typeof AgentSettingsInput>;

/** `POST /api/system/validate-sql-connection` (the reference's SQL connection check). */
export const SqlValidateInput = z.object({
  engine: z.string("The engine must be text.").optional(),
  connectionString: z.string("The connection details must be text.").optional(),
});

/**
 * The agent socket's messages (`/api/agent-invocation/:uuid`), server to client. The reference's shapes:
 * `statusResponse` lines, `WAITING_ON_INPUT`, `wssFailure`, and the agent's message `{from, to, content}`.
 * Lectern adds `toolCall` and `reportStreamEvent` text chunks.
 */
export type AgentSocketMessage =
  | { type: "statusResponse"; content: string; animate: boolean }
  | { type: "toolCall"; id: string; name: string; arguments: string }
  | { type: "toolResult"; id: string; name: string; ok: boolean; content: string }
  | { type: "reportStreamEvent"; content: { type: "textResponseChunk"; uuid: string; content: string } }
  | { type: "WAITING_ON_INPUT"; question: string }
  | { type: "wssFailure"; content: string }
  | {
    type?: undefined;
    from: string;
    to: string;
    content: string;
    uuid: string;
    chatId?: number;
    sources?: unknown[];
  };

/** What the client sends: the next message, or a bail command (`/exit`). */
export const AgentSocketInput = z.object({
  type: z.literal("awaitingFeedback"),
  feedback: z.string().max(100_000),
});

/** Typed in an agent session, these end it (the reference's WEBSOCKET_BAIL_COMMANDS). */
export const AGENT_BAIL_COMMANDS = ["exit", "/exit", "stop", "/stop", "halt", "/halt", "/reset"];

/** A chart the create-chart skill drew: kept in the answer as a ```chart fenced block of this JSON. */
export const ChartSpec = z.object({
  type: z.enum(["bar", "line", "pie"]),
  title: z.string().max(200).default(""),
  data: z.array(z.object({ label: z.string().max(100), value: z.number() })).min(1).max(100),
});
export type ChartSpec = z.infer<typeof ChartSpec>;
