import { asc, eq } from "drizzle-orm";
import { systemPromptVariables } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { builtInValues } from "../chat/prompt.ts";
import { findUserById } from "../users/repo.ts";
import type { PromptVariableInput } from "../../shared/api/prompt_variables.ts";
import { prepared } from "../../db/prepared.ts";

type Row = typeof systemPromptVariables.$inferSelect;
export type VariableType = "system" | "user" | "workspace" | "static";

/** A variable as `GET /api/system/prompt-variables` lists it (the reference's fields). */
export interface PromptVariable {
  /** Null for the built-in variables, which cannot be edited or deleted. */
  id: number | null;
  key: string;
  value: string;
  description: string | null;
  type: VariableType;
}

export interface StoredPromptVariable extends PromptVariable {
  id: number;
  type: "static";
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** The built-in variables, expanded in every system prompt (server/chat/prompt.ts). */
export const BUILT_IN_VARIABLES: readonly { key: string; description: string; type: VariableType }[] = [
  { key: "time", description: "Current time", type: "system" },
  { key: "time_24", description: "Current time (24-hour format)", type: "system" },
  { key: "date", description: "Current date", type: "system" },
  { key: "datetime", description: "Current date and time", type: "system" },
  { key: "datetime_24", description: "Current date and time (24-hour format)", type: "system" },
  { key: "user.id", description: "Current user's ID", type: "user" },
  { key: "user.name", description: "Current user's username", type: "user" },
  { key: "user.bio", description: "Current user's bio field from their profile", type: "user" },
  { key: "workspace.id", description: "Current workspace's ID", type: "workspace" },
  { key: "workspace.name", description: "Current workspace's name", type: "workspace" },
];

/** At most this many stored variables: each one is looked up for every chat. */
export const MAX_VARIABLES = 500;
export type VariableInput = PromptVariableInput;

/** The built-in variables cannot be stored: a body naming one is a conflict, whatever else it holds. */
function refuseBuiltIn(key: string) {
  if (BUILT_IN_VARIABLES.some((variable) => variable.key === key)) {
    fail("conflict", `{${key}} is a built-in variable; choose another key.`);
  }
}

const present = (row: Row): StoredPromptVariable => ({
  id: row.id,
  key: row.key,
  value: row.value,
  description: row.description,
  type: "static",
  userId: row.userId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.lastUpdatedAt.toISOString(),
});

/**
 * The built-in variables with their value for the caller (a placeholder for the workspace ones, which depend on
 * the chat), then the stored ones. The user variables need accounts, so single-user mode leaves them out, as
 * the reference does.
 */
export async function listVariables(deps: Deps, actor: Actor): Promise<PromptVariable[]> {
  const user = actor.userId === null ? null : await findUserById(deps, actor.userId);
  const values = builtInValues({
    now: new Date(),
    user: { id: actor.userId, name: user?.username ?? null, bio: user?.bio ?? null },
    workspace: { id: 0, name: "" },
  });
  const builtIn = BUILT_IN_VARIABLES.filter((variable) => variable.type !== "user" || actor.multiUser).map((
    variable,
  ) => ({
    id: null,
    key: variable.key,
    value: variable.type === "workspace" ? `[Workspace ${variable.key.split(".")[1]}]` : values[variable.key],
    description: variable.description,
    type: variable.type,
  }));
  const rows = await deps.db.select().from(systemPromptVariables).orderBy(asc(systemPromptVariables.key));
  return [...builtIn, ...rows.map(present)];
}

/** The stored variables as `{key: value}`, for expanding a system prompt. */
export async function customVariableValues(deps: Deps): Promise<Record<string, string>> {
  const rows = await prepared(
    deps.db,
    "prompt variables",
    (db) =>
      db.select({ key: systemPromptVariables.key, value: systemPromptVariables.value }).from(
        systemPromptVariables,
      )
        .prepare(),
  ).all();
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

async function keyTaken(deps: Deps, key: string, except?: number): Promise<boolean> {
  const rows = await deps.db.select({ id: systemPromptVariables.id }).from(systemPromptVariables)
    .where(eq(systemPromptVariables.key, key));
  return rows.some((row) => row.id !== except);
}

const taken = (key: string): never => fail("conflict", `A variable with the key "${key}" already exists.`);

/** Whether a write failed on the unique key (two admins saving the same key at once). */
function uniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (/UNIQUE constraint failed/.test(cause.message)) return true;
  }
  return false;
}

export async function createVariable(
  deps: Deps,
  actor: Actor,
  input: VariableInput,
): Promise<StoredPromptVariable> {
  refuseBuiltIn(input.key);
  if (await keyTaken(deps, input.key)) taken(input.key);
  const count = await deps.db.$count(systemPromptVariables);
  if (count >= MAX_VARIABLES) {
    fail("conflict", `There are already ${MAX_VARIABLES} variables; delete one before adding another.`);
  }
  try {
    const [row] = await deps.db.insert(systemPromptVariables).values({ ...input, userId: actor.userId })
      .returning();
    return present(row);
  } catch (error) {
    if (uniqueViolation(error)) taken(input.key);
    throw error;
  }
}

/** Null when no variable has that id. */
export async function updateVariable(
  deps: Deps,
  id: number,
  input: VariableInput,
): Promise<StoredPromptVariable | null> {
  refuseBuiltIn(input.key);
  const [existing] = await deps.db.select({ id: systemPromptVariables.id }).from(systemPromptVariables)
    .where(eq(systemPromptVariables.id, id));
  if (!existing) return null;
  if (await keyTaken(deps, input.key, id)) taken(input.key);
  try {
    const [row] = await deps.db.update(systemPromptVariables).set({ ...input, lastUpdatedAt: new Date() })
      .where(eq(systemPromptVariables.id, id)).returning();
    return row ? present(row) : null;
  } catch (error) {
    if (uniqueViolation(error)) taken(input.key);
    throw error;
  }
}

/** Whether a variable was deleted. */
export async function deleteVariable(deps: Deps, id: number): Promise<boolean> {
  const rows = await deps.db.delete(systemPromptVariables).where(eq(systemPromptVariables.id, id))
    .returning({ id: systemPromptVariables.id });
  return rows.length > 0;
}
