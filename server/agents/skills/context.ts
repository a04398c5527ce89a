import type { Actor } from "../../auth/actor.ts";
import type { Deps } from "../../deps.ts";
import type { ChatModel } from "../../providers/llm/types.ts";
import type { WorkspaceRow } from "../../workspaces/present.ts";

/** What a skill's tools run with: the invoking user (never more), their workspace and the agent's model. */
export interface SkillContext {
  deps: Deps;
  actor: Actor;
  workspace: WorkspaceRow;
  model: ChatModel;
}

/** A string argument, or an error the model is told about. */
export function textArg(args: Record<string, unknown>, name: string, required = true): string {
  const value = args[name];
  if (typeof value === "string" && value.trim()) return value.trim();
  if (!required && (value === undefined || value === null || value === "")) return "";
  throw new Error(`The argument "${name}" must be a non-empty string.`);
}
