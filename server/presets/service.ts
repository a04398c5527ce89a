import { and, asc, eq, sql } from "drizzle-orm";
import type * as z from "zod";
import { slashCommandPresets } from "../../db/schema.ts";
import { prepared } from "../../db/prepared.ts";
import { type Preset, type PresetInput, RESERVED_COMMANDS } from "../../shared/api/presets.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";

type Row = typeof slashCommandPresets.$inferSelect;

const present = (row: Row): Preset => ({
  id: row.id,
  command: row.command,
  prompt: row.prompt,
  description: row.description,
});

/** The owner key of presets: each user has their own; single-user mode keeps them under 0. */
const uidOf = (actor: Actor) => actor.userId ?? 0;

export async function listPresets(deps: Deps, actor: Actor): Promise<Preset[]> {
  const rows = await prepared(
    deps.db,
    "presets of a user",
    (db) =>
      db.select().from(slashCommandPresets).where(eq(slashCommandPresets.uid, sql.placeholder("uid")))
        .orderBy(asc(slashCommandPresets.command)).prepare(),
  ).all({ uid: uidOf(actor) });
  return rows.map(present);
}

function checkCommand(command: string) {
  if ((RESERVED_COMMANDS as readonly string[]).includes(command)) {
    fail("invalid_input", `${command} is a built-in command and cannot be a preset.`);
  }
}

export async function createPreset(
  deps: Deps,
  actor: Actor,
  input: z.output<typeof PresetInput>,
): Promise<Preset> {
  checkCommand(input.command);
  const existing = await deps.db.select({ id: slashCommandPresets.id }).from(slashCommandPresets)
    .where(and(eq(slashCommandPresets.uid, uidOf(actor)), eq(slashCommandPresets.command, input.command)));
  if (existing.length > 0) fail("conflict", `You already have a preset ${input.command}.`);
  const [row] = await deps.db.insert(slashCommandPresets).values({
    ...input,
    uid: uidOf(actor),
    userId: actor.userId,
  })
    .returning();
  return present(row);
}

async function ownPreset(deps: Deps, actor: Actor, id: number): Promise<Row> {
  const [row] = await deps.db.select().from(slashCommandPresets).where(
    and(eq(slashCommandPresets.id, id), eq(slashCommandPresets.uid, uidOf(actor))),
  );
  return row ?? fail("not_found", "Cannot find that slash command preset.");
}

export async function updatePreset(
  deps: Deps,
  actor: Actor,
  id: number,
  input: z.output<typeof PresetInput>,
) {
  const row = await ownPreset(deps, actor, id);
  checkCommand(input.command);
  if (input.command !== row.command) {
    const clash = await deps.db.select({ id: slashCommandPresets.id }).from(slashCommandPresets)
      .where(and(eq(slashCommandPresets.uid, row.uid), eq(slashCommandPresets.command, input.command)));
    if (clash.length > 0) fail("conflict", `You already have a preset ${input.command}.`);
  }
  const [updated] = await deps.db.update(slashCommandPresets).set({ ...input, lastUpdatedAt: new Date() })
    .where(eq(slashCommandPresets.id, row.id)).returning();
  return present(updated);
}

export async function deletePreset(deps: Deps, actor: Actor, id: number): Promise<void> {
  const row = await ownPreset(deps, actor, id);
  await deps.db.delete(slashCommandPresets).where(eq(slashCommandPresets.id, row.id));
}

/**
 * Replaces each `/command` of the caller's presets with its prompt, where the command starts the message or
 * follows whitespace and ends at whitespace or the end (docs/api-compat.md#slash-presets-and-commands).
 */
export function expandPresets(message: string, presets: Preset[]): string {
  if (presets.length === 0 || !message.includes("/")) return message;
  const byCommand = new Map(presets.map((preset) => [preset.command, preset.prompt]));
  return message.replace(/(^|\s)(\/[a-z0-9_-]+)(?=\s|$)/gi, (whole, space: string, command: string) => {
    const prompt = byCommand.get(command.toLowerCase());
    return prompt === undefined ? whole : `${space}${prompt}`;
  });
}
