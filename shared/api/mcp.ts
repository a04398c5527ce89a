import * as z from "zod";

/** What the list answers in place of an environment variable's or a header's value. */
export const MCP_SECRET_MASK = "********";

const name = z.string("A server needs a name.").trim().min(1, "A server needs a name.")
  .max(40, "A server's name is at most 40 characters.")
  .regex(/^[A-Za-z0-9_-]+$/, "A server's name may hold letters, digits, - and _ only.");

const stringMap = (what: string) =>
  z.record(
    z.string().min(1, `${what} needs a name.`).max(200, `${what}'s name is too long.`),
    z.string(`${what}'s value must be text.`).max(4000, `${what}'s value is too long.`),
    `${what}s must be name and value pairs.`,
  );

/** Lectern's own settings of a server, where the reference keeps them (`anythingllm` in its config file). */
const LecternOptions = z.object({
  /** False: the server is off (never started, its tools not offered). */
  autoStart: z.boolean().optional(),
  suppressedTools: z.array(z.string()).optional(),
}).optional();

/** A server started as a command on the Lectern server, speaking MCP on its standard input and output. */
export const McpStdioServer = z.object({
  type: z.literal("stdio").optional(),
  command: z.string("A stdio server needs a command.").trim().min(1, "A stdio server needs a command.")
    .max(1000, "The command is too long."),
  args: z.array(z.string().max(4000, "An argument is too long."), "The arguments must be a list.")
    .max(100, "At most 100 arguments.").optional(),
  env: stringMap("An environment variable").optional(),
  anythingllm: LecternOptions,
});

/** A server reached over streamable HTTP. */
export const McpHttpServer = z.object({
  type: z.enum(["streamable", "http"], "An HTTP server's type must be streamable or http."),
  url: z.string("An HTTP server needs a URL.").trim().max(2000, "The URL is too long.")
    .refine(
      (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
      "The URL must start with http:// or https://.",
    ),
  headers: stringMap("A header").optional(),
  anythingllm: LecternOptions,
});

export const McpServerConfig = z.union([McpHttpServer, McpStdioServer], {
  error: "A server needs a command (stdio) or a type and URL (streamable HTTP).",
});
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** `POST /api/mcp-servers/save` (Lectern's own: the reference edits its config file by hand). */
export const McpSaveInput = z.object({ name, server: McpServerConfig });
export type McpSaveInput = z.infer<typeof McpSaveInput>;

/** `POST /api/mcp-servers/toggle` and `/delete`. */
export const McpNameInput = z.object({ name: z.string("Name the server.").min(1, "Name the server.") });

/** `POST /api/mcp-servers/toggle-tool`. */
export const McpToggleToolInput = z.object({
  serverName: z.string("Name the server.").min(1, "Name the server."),
  toolName: z.string("Name the tool.").min(1, "Name the tool."),
  enabled: z.boolean("enabled must be true or false."),
});

export interface McpToolView {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** One server of `GET /api/mcp-servers/list`, the reference's shape (Lectern adds `enabled` and `kind`). */
export interface McpServerView {
  name: string;
  /** Its configuration, secret values masked. */
  config: McpServerConfig | null;
  running: boolean;
  tools: McpToolView[];
  error: string | null;
  process: { pid: number | null } | null;
  enabled: boolean;
  kind: "stdio" | "http";
}
