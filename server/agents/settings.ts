// The agents' instance settings, kept as labels of the settings table (the reference's labels where it has them).
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { sqliteProblem } from "./skills/sql_db.ts";
import { decryptSecret, encryptSecret } from "../auth/keys.ts";
import {
  AGENT_SKILLS,
  type AgentSettingsInput,
  type AgentSettingsView,
  type AgentSkillId,
  SEARCH_PROVIDERS,
  type SearchProvider,
  type SqlConnection,
} from "../../shared/api/agents.ts";

export const AGENT_LABELS = {
  /** Optional skills turned on (JSON list). */
  enabled: "default_agent_skills",
  /** Default skills turned off (JSON list). */
  disabled: "disabled_agent_skills",
  searchProvider: "agent_search_provider",
  /** JSON list of `{database_id, engine, connectionString}`, the list encrypted with the instance key. */
  sqlConnections: "agent_sql_connections",
  maxSteps: "agent_max_steps",
  timeoutSeconds: "agent_timeout_seconds",
} as const;

export const DEFAULT_MAX_STEPS = 10;
export const DEFAULT_TIMEOUT_SECONDS = 300;

function list(deps: Deps, label: string): string[] {
  try {
    const value = JSON.parse(deps.settings.label(label) ?? "[]");
    return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** Whether a skill's toggle is on (not whether it has what it needs). */
export function skillActive(deps: Deps, id: AgentSkillId): boolean {
  const skill = AGENT_SKILLS.find((entry) => entry.id === id)!;
  return skill.defaultOn ? !list(deps, AGENT_LABELS.disabled).includes(id) : list(deps, AGENT_LABELS.enabled)
    .includes(id);
}

export function searchProvider(deps: Deps): SearchProvider {
  const value = deps.settings.label(AGENT_LABELS.searchProvider);
  return (SEARCH_PROVIDERS as readonly string[]).includes(value ?? "") ? value as SearchProvider : "none";
}

export function searchConfigured(deps: Deps): AgentSettingsView["searchConfigured"] {
  return {
    "searxng-engine": Boolean(deps.settings.value("AgentSearXNGApiUrl")),
    "tavily-search": Boolean(deps.settings.value("AgentTavilyApiKey")),
    "brave-search": Boolean(deps.settings.value("AgentBraveApiKey")),
  };
}

function positive(deps: Deps, label: string, fallback: number): number {
  const value = Number(deps.settings.label(label));
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export const maxSteps = (deps: Deps) => positive(deps, AGENT_LABELS.maxSteps, DEFAULT_MAX_STEPS);
export const timeoutSeconds = (deps: Deps) =>
  positive(deps, AGENT_LABELS.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS);

/** The SQL skill's connections, with their connection strings. */
export async function sqlConnections(deps: Deps): Promise<SqlConnection[]> {
  const stored = deps.settings.label(AGENT_LABELS.sqlConnections);
  if (!stored) return [];
  try {
    const value = JSON.parse(await decryptSecret(deps.keys.settings, stored));
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** Whether a skill can run: its toggle is on and it has its configuration. */
export async function skillReady(deps: Deps, id: AgentSkillId): Promise<boolean> {
  if (id === "web-browsing") {
    const provider = searchProvider(deps);
    return provider !== "none" && searchConfigured(deps)[provider];
  }
  if (id === "sql-agent") return (await sqlConnections(deps)).length > 0;
  return true;
}

/** The skills whose toggle is on and that have what they need. */
export async function activeSkills(deps: Deps): Promise<AgentSkillId[]> {
  const active: AgentSkillId[] = [];
  for (const skill of AGENT_SKILLS) {
    if (skillActive(deps, skill.id) && await skillReady(deps, skill.id)) active.push(skill.id);
  }
  return active;
}

export async function agentSettingsView(deps: Deps, available: boolean): Promise<AgentSettingsView> {
  const skills = [];
  for (const skill of AGENT_SKILLS) {
    skills.push({
      id: skill.id,
      active: skillActive(deps, skill.id),
      ready: await skillReady(deps, skill.id),
    });
  }
  return {
    skills,
    searchProvider: searchProvider(deps),
    searchConfigured: searchConfigured(deps),
    sqlConnections: (await sqlConnections(deps)).map(({ database_id, engine }) => ({ database_id, engine })),
    maxSteps: maxSteps(deps),
    timeoutSeconds: timeoutSeconds(deps),
    available,
  };
}

/** Saves what the input names; returns the labels that changed. */
export async function saveAgentSettings(deps: Deps, input: AgentSettingsInput): Promise<string[]> {
  const values: Record<string, string | null> = {};
  if (input.skills) {
    const enabled = new Set(list(deps, AGENT_LABELS.enabled));
    const disabled = new Set(list(deps, AGENT_LABELS.disabled));
    for (const [id, on] of Object.entries(input.skills)) {
      const skill = AGENT_SKILLS.find((entry) => entry.id === id)!;
      if (skill.defaultOn) on ? disabled.delete(id) : disabled.add(id);
      else on ? enabled.add(id) : enabled.delete(id);
    }
    values[AGENT_LABELS.enabled] = JSON.stringify([...enabled]);
    values[AGENT_LABELS.disabled] = JSON.stringify([...disabled]);
  }
  if (input.searchProvider) values[AGENT_LABELS.searchProvider] = input.searchProvider;
  if (input.maxSteps !== undefined) values[AGENT_LABELS.maxSteps] = String(input.maxSteps);
  if (input.timeoutSeconds !== undefined) values[AGENT_LABELS.timeoutSeconds] = String(input.timeoutSeconds);
  if (input.sqlConnections) {
    // A connection sent without its string keeps the stored one (the screen never has it).
    const before = await sqlConnections(deps);
    const next = input.sqlConnections.map((connection) => ({
      ...connection,
      connectionString: connection.connectionString ||
        before.find((old) => old.database_id === connection.database_id)?.connectionString || "",
    }));
    for (const connection of next) {
      const problem = connection.connectionString
        ? sqliteProblem(deps, connection.connectionString)
        : "It needs the path of its database file.";
      if (problem) {
        fail("invalid_input", `The connection ${connection.database_id} cannot be used: ${problem}`);
      }
    }
    values[AGENT_LABELS.sqlConnections] = next.length
      ? await encryptSecret(deps.keys.settings, JSON.stringify(next))
      : null;
  }
  return await deps.settings.setLabels(values);
}
