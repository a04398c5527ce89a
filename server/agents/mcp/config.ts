// The MCP servers an admin configured, kept as the reference keeps them: `plugins/anythingllm_mcp_servers.json`
// in the storage folder, `{"mcpServers": {"<name>": {command, args, env} | {type, url, headers}}}`, Lectern's own
// options under each server's `anythingllm` key (autoStart, suppressedTools).
import { join } from "node:path";
import { writeFileAtomic } from "../../storage.ts";
import { MCP_SECRET_MASK, McpServerConfig } from "../../../shared/api/mcp.ts";

export interface McpConfigFile {
  mcpServers: Record<string, Record<string, unknown>>;
}

export const mcpConfigPath = (root: string) => join(root, "plugins", "anythingllm_mcp_servers.json");

export async function readMcpConfig(root: string): Promise<McpConfigFile> {
  try {
    const value = JSON.parse(await Deno.readTextFile(mcpConfigPath(root)));
    const servers = value?.mcpServers;
    return { mcpServers: servers && typeof servers === "object" && !Array.isArray(servers) ? servers : {} };
  } catch {
    return { mcpServers: {} };
  }
}

/** Written for the server's user only: the environment variables and headers may hold keys. */
export async function writeMcpConfig(root: string, file: McpConfigFile): Promise<void> {
  await Deno.mkdir(join(root, "plugins"), { recursive: true });
  await writeFileAtomic(mcpConfigPath(root), JSON.stringify(file, null, 2), 0o600);
}

/** A stored server's configuration, or the sentence saying what is wrong with it (the file is hand-editable). */
export function parseServer(raw: unknown): { config: McpServerConfig } | { error: string } {
  const parsed = McpServerConfig.safeParse(raw);
  if (parsed.success) return { config: parsed.data };
  const issue = parsed.error.issues[0];
  const message = issue?.message ?? "The server's configuration is not valid.";
  return { error: /[.!?]$/.test(message) ? message : `${message}.` };
}

export const serverKind = (config: McpServerConfig): "stdio" | "http" =>
  "command" in config ? "stdio" : "http";

export const serverEnabled = (raw: Record<string, unknown> | undefined): boolean =>
  (raw?.anythingllm as { autoStart?: unknown } | undefined)?.autoStart !== false;

export const suppressedTools = (raw: Record<string, unknown> | undefined): string[] => {
  const list = (raw?.anythingllm as { suppressedTools?: unknown } | undefined)?.suppressedTools;
  return Array.isArray(list) ? list.filter((item) => typeof item === "string") : [];
};

const maskValues = (values: Record<string, string> | undefined) =>
  values && Object.fromEntries(Object.keys(values).map((key) => [key, MCP_SECRET_MASK]));

/** The configuration as the screen sees it: values of environment variables and headers masked. */
export function maskedConfig(config: McpServerConfig): McpServerConfig {
  if ("command" in config) return { ...config, ...(config.env ? { env: maskValues(config.env) } : {}) };
  return { ...config, ...(config.headers ? { headers: maskValues(config.headers) } : {}) };
}

/** A value sent back masked keeps the stored one. */
export function unmask(
  next: Record<string, string> | undefined,
  before: Record<string, unknown> | undefined,
): Record<string, string> | undefined {
  if (!next) return next;
  return Object.fromEntries(
    Object.entries(next).map((
      [key, value],
    ) => [
      key,
      value === MCP_SECRET_MASK && typeof before?.[key] === "string" ? before[key] as string : value,
    ]),
  );
}
