import * as z from "zod";
import { SETTING_KEYS } from "../shared/settings.ts";
import { parseOrigin } from "./http/cors.ts";
import { CHAT_STARTS_AT_ONCE } from "./chat/admission.ts";

const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const integerString = (name: string, minimum: number, maximum: number) =>
  z.string().trim().regex(/^\d+$/, `${name} must be a whole number.`).transform(Number).pipe(
    z.number().min(minimum, `${name} must be at least ${minimum}`).max(
      maximum,
      `${name} must be at most ${maximum}`,
    ),
  );

const flag = (name: string) =>
  z.enum(["0", "1", "true", "false"], { error: `${name} must be 1, 0, true or false.` }).default("0")
    .transform((value) => value === "1" || value === "true");

const EnvSchema = z.object({
  PORT: integerString("PORT", 0, 65535).default(3001),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  STORAGE_DIR: z.string().trim().min(1).default("./storage"),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}` }).default(
    "info",
  ),
  MAX_UPLOAD_MB: integerString("MAX_UPLOAD_MB", 1, 10_240).default(100),
  /** One file's parse runs in its own process, killed after this long or when it needs more memory than this. */
  PARSE_TIMEOUT_SECONDS: integerString("PARSE_TIMEOUT_SECONDS", 1, 3600).default(120),
  PARSE_MEMORY_MB: integerString("PARSE_MEMORY_MB", 64, 65_536).default(1024),
  /** The most text one file may give (in millions of characters): a zip bomb is refused at this size. */
  PARSE_MAX_TEXT_MB: integerString("PARSE_MAX_TEXT_MB", 1, 1024).default(64),
  /**
   * How long a chat waits for the language model's next words (the first ones included) before it stops the
   * answer with a message; a local model loading into memory may need minutes.
   */
  LLM_TIMEOUT_SECONDS: integerString("LLM_TIMEOUT_SECONDS", 1, 3600).default(600),
  /**
   * How many chats may be starting at once (history, retrieval, the prompt, the request to the model); more
   * wait their turn in order, so the answers already streaming keep their pace when many chats arrive at once.
   */
  CHAT_STARTS_AT_ONCE: integerString("CHAT_STARTS_AT_ONCE", 1, 10_000).default(CHAT_STARTS_AT_ONCE),
  /** How often freed native memory is handed back to the system (glibc's malloc_trim); 0 turns it off. */
  MEMORY_TRIM_SECONDS: integerString("MEMORY_TRIM_SECONDS", 0, 86_400).default(30),
  /**
   * Between those turns, a full garbage collection and a trim as soon as the resident memory has grown this many
   * MiB above its low point since the last trim (server/memory_trim.ts); 0 turns it off.
   */
  MEMORY_TRIM_GROWTH_MB: integerString("MEMORY_TRIM_GROWTH_MB", 0, 65_536).default(32),
  /** Development: re-read the client manifest on every page so `vite build --watch` output is picked up. */
  LECTERN_DEV: flag("LECTERN_DEV"),
  /** Lets an admin issue single-use login links (simple SSO). */
  SIMPLE_SSO_ENABLED: flag("SIMPLE_SSO_ENABLED"),
  /** With simple SSO on: no username/password login and no invitations. */
  SIMPLE_SSO_NO_LOGIN: flag("SIMPLE_SSO_NO_LOGIN"),
  /**
   * The reference's WORKSPACE_DELETION_PROTECTION, on when set at all: only admins delete workspaces, after
   * typing the name, and the developer API deletes none.
   */
  WORKSPACE_DELETION_PROTECTION: z.string().optional().transform((value) => value !== undefined),
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (for login rate limits). */
  TRUST_PROXY: flag("TRUST_PROXY"),
  /** Names (besides IP addresses, localhost and this machine's name) the instance answers to, comma-separated. */
  ALLOWED_HOSTS: z.string().trim().optional().transform((value) =>
    (value ?? "").split(",").map((name) => name.trim().toLowerCase()).filter(Boolean)
  ).pipe(
    z.array(
      z.string().regex(/^[a-z0-9.-]+$/, { error: "ALLOWED_HOSTS must list host names, without ports." }),
    ),
  ),
  /**
   * Host names of self-hosted services (GitLab, Confluence, GitHub Enterprise) that data connectors may reach on
   * loopback or private addresses, comma-separated; every other private address stays refused.
   */
  LECTERN_CONNECTOR_PRIVATE_HOSTS: z.string().trim().optional().transform((value) =>
    (value ?? "").split(",").map((name) => name.trim().toLowerCase().replace(/^\[|\]$/g, "")).filter(Boolean)
  ).pipe(
    z.array(
      z.string().regex(/^[a-z0-9.:-]+$/, {
        error: "LECTERN_CONNECTOR_PRIVATE_HOSTS must list host names or addresses, without ports.",
      }),
    ),
  ),
  /** Web origins (`https://app.example.org`) whose pages may call the API across origins, comma-separated. */
  CORS_ORIGINS: z.string().trim().optional().transform((value, context) => {
    const origins: string[] = [];
    for (const entry of (value ?? "").split(",").map((part) => part.trim()).filter(Boolean)) {
      const origin = parseOrigin(entry);
      if (origin) origins.push(origin);
      else {
        context.addIssue({
          code: "custom",
          message:
            `CORS_ORIGINS must list origins such as https://app.example.org (scheme, host and port only), ` +
            `not "${entry}".`,
        });
      }
    }
    return [...new Set(origins)];
  }),
  /**
   * The database on a libSQL server (sqld or Turso) instead of the storage folder's file, so that several
   * replicas share it (docs/scaling.md): libsql://, http(s):// or ws(s)://.
   */
  DATABASE_URL: z.string().trim().regex(/^(libsql|https?|wss?):\/\/[^\s/]+/i, {
    error: "DATABASE_URL must be a libsql://, http(s):// or ws(s):// URL of a libSQL server.",
  }).optional(),
  DATABASE_AUTH_TOKEN: z.string().trim().optional(),
  /** With DATABASE_URL: a local file kept as an embedded replica of the server's database (reads from it). */
  DATABASE_REPLICA_PATH: z.string().trim().min(1).optional(),
  /** How often the embedded replica is synced from the server (besides after each write). */
  DATABASE_SYNC_SECONDS: integerString("DATABASE_SYNC_SECONDS", 1, 86_400).default(60),
  /** This replica's name in the job runner's lease; default: the host name and the port. */
  LECTERN_REPLICA_ID: z.string().trim().regex(/^[\w.:@-]{1,100}$/, {
    error: "LECTERN_REPLICA_ID must be letters, digits and . : @ - _ (at most 100).",
  }).optional(),
  /** How long the job runner's lease lasts unrenewed: a dead runner is replaced after at most this long. */
  JOB_LEASE_SECONDS: integerString("JOB_LEASE_SECONDS", 1, 3600).default(30),
  /** How often the database-wide maintenance job (pruning) runs. */
  MAINTENANCE_INTERVAL_SECONDS: integerString("MAINTENANCE_INTERVAL_SECONDS", 1, 86_400).default(3600),
  /** How often each replica reads the instance settings again (another replica may have changed them); 0: never. */
  SETTINGS_REFRESH_SECONDS: integerString("SETTINGS_REFRESH_SECONDS", 0, 3600).default(5),
  /** Where login and recovery attempts are counted: this process's memory, or the shared database. */
  RATE_LIMITS: z.enum(["memory", "database"], { error: "RATE_LIMITS must be memory or database." })
    .optional(),
  /** Where the onboarding survey is sent, if anywhere (it is always kept locally). */
  SURVEY_COLLECTOR_URL: z.url({ error: "SURVEY_COLLECTOR_URL must be a URL." }).optional(),
  /** Pinecone's control plane, for Pinecone Local (https://api.pinecone.io unless set). */
  PINECONE_CONTROL_PLANE: z.url({ error: "PINECONE_CONTROL_PLANE must be a URL." }).optional(),
});

export interface Config {
  port: number;
  host: string;
  storageDir: string;
  logLevel: LogLevel;
  maxUploadBytes: number;
  parse: { timeoutSeconds: number; memoryMb: number; maxTextMb: number };
  memoryTrimSeconds: number;
  /** MiB of growth of the resident memory that trims before the next turn; 0: none. */
  memoryTrimGrowthMb: number;
  /** Seconds a chat waits for the language model's next words before stopping the answer. */
  llmTimeoutSeconds: number;
  /** Chats starting at once at most (server/chat/admission.ts); the others wait their turn. */
  chatStartsAtOnce: number;
  dev: boolean;
  simpleSso: { enabled: boolean; noLogin: boolean };
  trustProxy: boolean;
  /** WORKSPACE_DELETION_PROTECTION set: only admins delete workspaces, after typing the name. */
  workspaceDeletionProtection: boolean;
  /** Host names the instance answers to besides addresses, localhost and the machine's own name. */
  allowedHosts: readonly string[];
  /** Origins allowed to call the API from their pages (CORS); empty: same origin only. */
  corsOrigins: readonly string[];
  /** Hosts data connectors may reach on private addresses (`LECTERN_CONNECTOR_PRIVATE_HOSTS`). */
  connectorPrivateHosts: readonly string[];
  surveyCollectorUrl: string | null;
  /** Pinecone's control plane when not Pinecone's own (Pinecone Local). */
  pineconeControlPlane: string | null;
  /** The libSQL server the database is on, or null for the storage folder's file. */
  database: {
    url: string;
    authToken: string | undefined;
    replicaPath: string | undefined;
    syncSeconds: number;
  } | null;
  /** Background jobs shared by the replicas of one database (server/jobs/). */
  jobs: {
    replicaId: string | null;
    leaseSeconds: number;
    maintenanceSeconds: number;
    settingsRefreshSeconds: number;
  };
  /** Where login attempts are counted: "database" by default with DATABASE_URL, else "memory". */
  rateLimits: "memory" | "database";
  /** Instance settings the operator fixed through the environment (setting key → raw value); they win. */
  lockedSettings: Readonly<Record<string, string>>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment variables:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment once; every problem is listed, not just the first. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = EnvSchema.safeParse(present);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join(".")}: ${issue.message}`);
  }
  const lockedSettings: Record<string, string> = {};
  for (const definition of SETTING_KEYS) {
    const value = present[definition.env];
    if (value === undefined) continue;
    const checked = definition.schema.safeParse(value);
    if (checked.success) lockedSettings[definition.key] = value;
    else problems.push(`${definition.env}: ${checked.error.issues[0]?.message ?? "invalid value"}`);
  }
  if (parsed.success && !parsed.data.DATABASE_URL) {
    for (const name of ["DATABASE_AUTH_TOKEN", "DATABASE_REPLICA_PATH"] as const) {
      if (parsed.data[name]) problems.push(`${name}: it needs DATABASE_URL.`);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const values = parsed.data;
  return Object.freeze({
    port: values.PORT,
    host: values.HOST,
    storageDir: values.STORAGE_DIR,
    logLevel: values.LOG_LEVEL,
    maxUploadBytes: values.MAX_UPLOAD_MB * 1024 * 1024,
    parse: Object.freeze({
      timeoutSeconds: values.PARSE_TIMEOUT_SECONDS,
      memoryMb: values.PARSE_MEMORY_MB,
      maxTextMb: values.PARSE_MAX_TEXT_MB,
    }),
    memoryTrimSeconds: values.MEMORY_TRIM_SECONDS,
    memoryTrimGrowthMb: values.MEMORY_TRIM_GROWTH_MB,
    llmTimeoutSeconds: values.LLM_TIMEOUT_SECONDS,
    chatStartsAtOnce: values.CHAT_STARTS_AT_ONCE,
    dev: values.LECTERN_DEV,
    simpleSso: Object.freeze({ enabled: values.SIMPLE_SSO_ENABLED, noLogin: values.SIMPLE_SSO_NO_LOGIN }),
    trustProxy: values.TRUST_PROXY,
    workspaceDeletionProtection: values.WORKSPACE_DELETION_PROTECTION,
    allowedHosts: Object.freeze(values.ALLOWED_HOSTS),
    corsOrigins: Object.freeze(values.CORS_ORIGINS),
    connectorPrivateHosts: Object.freeze(values.LECTERN_CONNECTOR_PRIVATE_HOSTS),
    surveyCollectorUrl: values.SURVEY_COLLECTOR_URL ?? null,
    pineconeControlPlane: values.PINECONE_CONTROL_PLANE ?? null,
    database: values.DATABASE_URL
      ? Object.freeze({
        url: values.DATABASE_URL,
        authToken: values.DATABASE_AUTH_TOKEN,
        replicaPath: values.DATABASE_REPLICA_PATH,
        syncSeconds: values.DATABASE_SYNC_SECONDS,
      })
      : null,
    jobs: Object.freeze({
      replicaId: values.LECTERN_REPLICA_ID ?? null,
      leaseSeconds: values.JOB_LEASE_SECONDS,
      maintenanceSeconds: values.MAINTENANCE_INTERVAL_SECONDS,
      settingsRefreshSeconds: values.SETTINGS_REFRESH_SECONDS,
    }),
    rateLimits: values.RATE_LIMITS ?? (values.DATABASE_URL ? "database" : "memory"),
    lockedSettings: Object.freeze(lockedSettings),
  });
}
