import { asc, eq } from "drizzle-orm";
import { systemPromptVariables } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { builtInValues } from "../chat/prompt.ts";
import { findUserById } from "../users/repo.ts";

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
const MAX_VALUE = 20_000;
const MAX_DESCRIPTION = 1_000;
const KEY = /^[A-Za-z0-9_]+$/;

export interface VariableInput {
  key: string;
  value: string;
  description: string | null;
}

const invalid = (message: string): never => fail("invalid_input", message);

/** Checks a create or update body as the reference does, with its messages where it has them. */
export function checkVariableInput(body: unknown): VariableInput {
  const input = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const { key, value, description } = input;
  if (!key || !value) invalid("Key and value are required");
  if (typeof key !== "string") invalid("Key must be a string");
  if (typeof value !== "string") invalid("Value must be text");
  const name = key as string;
  if (!KEY.test(name)) invalid("Key must contain only letters, numbers and underscores");
  if (name.length < 3) invalid("Key must be at least 3 characters");
  if (name.length > 255) invalid("Key must be less than 255 characters");
  if ((value as string).trim() === "") invalid("Key and value are required");
  if ((value as string).length > MAX_VALUE) invalid(`Value must be at most ${MAX_VALUE} characters`);
  if (description !== undefined && description !== null && typeof description !== "string") {
    invalid("Description must be text");
  }
  const text = typeof description === "string" && description.trim() ? description.trim() : null;
  if (text && text.length > MAX_DESCRIPTION) {
    invalid(`Description must be at most ${MAX_DESCRIPTION} characters`);
  }
  if (BUILT_IN_VARIABLES.some((variable) => variable.key === name)) {
    fail("conflict", `{${name}} is a built-in variable; choose another key.`);
  }
  return { key: name, value: value as string, description: text };
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
  const rows = await deps.db.select({ key: systemPromptVariables.key, value: systemPromptVariables.value })
    .from(systemPromptVariables);
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
