import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import { embedChats, embedConfigs, workspaces } from "../../db/schema.ts";
import {
  DEFAULT_EMBED_MESSAGE_LIMIT,
  type EmbedChatsPage,
  type EmbedChatView,
  type EmbedView,
  type NewEmbedBody,
  type UpdateEmbedBody,
} from "../../shared/api/embeds.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { ChatStore, StoredExchange, StoredResponse } from "../chat/history.ts";

export type EmbedRow = typeof embedConfigs.$inferSelect;
export type EmbedChatRow = typeof embedChats.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;

/** An embed as the reference lists it: snake_case, the domains as a JSON string, with workspace and chat count. */
function presentEmbed(
  row: EmbedRow,
  workspace: { id: number; name: string; slug: string },
  chats: number,
): EmbedView {
  const domains = row.allowlistDomains && row.allowlistDomains.length > 0 ? row.allowlistDomains : null;
  return {
    id: row.id,
    uuid: row.uuid,
    enabled: row.enabled,
    chat_mode: row.chatMode,
    allowlist_domains: domains ? JSON.stringify(domains) : null,
    allow_model_override: row.allowModelOverride,
    allow_temperature_override: row.allowTemperatureOverride,
    allow_prompt_override: row.allowPromptOverride,
    max_chats_per_day: row.maxChatsPerDay,
    max_chats_per_session: row.maxChatsPerSession,
    message_limit: row.messageLimit,
    workspace_id: row.workspaceId,
    createdBy: row.createdBy,
    usersId: null,
    createdAt: row.createdAt.toISOString(),
    workspace,
    _count: { embed_chats: chats },
  };
}

const chatCount = sql<
  number
>`(select count(*) from ${embedChats} where ${embedChats.embedId} = ${embedConfigs.id})`;

/** Every embed, newest first, with its workspace and how many chats it has had. */
export async function listEmbeds(deps: Deps, id?: number): Promise<EmbedView[]> {
  const rows = await deps.db.select({
    embed: embedConfigs,
    workspace: { id: workspaces.id, name: workspaces.name, slug: workspaces.slug },
    chats: chatCount,
  }).from(embedConfigs)
    .innerJoin(workspaces, eq(workspaces.id, embedConfigs.workspaceId))
    .where(id === undefined ? undefined : eq(embedConfigs.id, id))
    .orderBy(desc(embedConfigs.createdAt), desc(embedConfigs.id));
  return rows.map((row) => presentEmbed(row.embed, row.workspace, Number(row.chats)));
}

async function requireWorkspaceId(
  deps: Deps,
  id: number,
  body: (message: string) => Record<string, unknown>,
) {
  const [row] = await deps.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id));
  if (!row) {
    fail(
      "invalid_input",
      `workspace_id ${id} is not a workspace.`,
      body(`workspace_id ${id} is not a workspace.`),
    );
  }
}

export async function createEmbed(
  deps: Deps,
  input: NewEmbedBody,
  createdBy: number | null,
  body: (message: string) => Record<string, unknown>,
): Promise<EmbedView> {
  await requireWorkspaceId(deps, input.workspace_id, body);
  const [row] = await deps.db.insert(embedConfigs).values({
    uuid: crypto.randomUUID(),
    enabled: input.enabled,
    chatMode: input.chat_mode,
    allowlistDomains: input.allowlist_domains,
    allowModelOverride: input.allow_model_override,
    allowTemperatureOverride: input.allow_temperature_override,
    allowPromptOverride: input.allow_prompt_override,
    maxChatsPerDay: input.max_chats_per_day,
    maxChatsPerSession: input.max_chats_per_session,
    messageLimit: input.message_limit,
    workspaceId: input.workspace_id,
    createdBy,
  }).returning({ id: embedConfigs.id });
  if (input.allowlist_domains === null) {
    deps.log.warn("An embed was created without allowed domains: any web site may use it", { embed: row.id });
  }
  return (await listEmbeds(deps, row.id))[0];
}

export async function findEmbedById(deps: Deps, id: number): Promise<EmbedRow | null> {
  const [row] = await deps.db.select().from(embedConfigs).where(eq(embedConfigs.id, id));
  return row ?? null;
}

export async function findEmbedByUuid(deps: Deps, uuid: string): Promise<EmbedRow | null> {
  const [row] = await deps.db.select().from(embedConfigs).where(eq(embedConfigs.uuid, uuid));
  return row ?? null;
}

/** The embed with this id, or a 404 in the calling route's shape. */
export async function requireEmbed(
  deps: Deps,
  id: number,
  body: (message: string) => Record<string, unknown>,
): Promise<EmbedRow> {
  const row = await findEmbedById(deps, id);
  if (!row) fail("not_found", `Embed ${id} does not exist.`, body(`Embed ${id} does not exist.`));
  return row;
}

/** Applies the fields given; returns the names of those that changed. */
export async function updateEmbed(
  deps: Deps,
  embed: EmbedRow,
  input: UpdateEmbedBody,
  body: (message: string) => Record<string, unknown>,
): Promise<string[]> {
  if (input.workspace_id !== undefined) await requireWorkspaceId(deps, input.workspace_id, body);
  const changes: Partial<typeof embedConfigs.$inferInsert> = {};
  const changed: string[] = [];
  const set = <K extends keyof typeof changes>(
    field: string,
    key: K,
    value: (typeof changes)[K] | undefined,
  ) => {
    if (value === undefined) return;
    if (JSON.stringify(embed[key as keyof EmbedRow] ?? null) !== JSON.stringify(value ?? null)) {
      changed.push(field);
    }
    changes[key] = value;
  };
  set("workspace_id", "workspaceId", input.workspace_id);
  set("chat_mode", "chatMode", input.chat_mode);
  set("allowlist_domains", "allowlistDomains", input.allowlist_domains);
  set("allow_model_override", "allowModelOverride", input.allow_model_override);
  set("allow_temperature_override", "allowTemperatureOverride", input.allow_temperature_override);
  set("allow_prompt_override", "allowPromptOverride", input.allow_prompt_override);
  set("max_chats_per_day", "maxChatsPerDay", input.max_chats_per_day);
  set("max_chats_per_session", "maxChatsPerSession", input.max_chats_per_session);
  set("message_limit", "messageLimit", input.message_limit);
  set("enabled", "enabled", input.enabled);
  if (Object.keys(changes).length > 0) {
    await deps.db.update(embedConfigs).set(changes).where(eq(embedConfigs.id, embed.id));
  }
  return changed;
}

/** Deletes an embed and, by the cascade, its chats. */
export async function deleteEmbed(deps: Deps, id: number): Promise<void> {
  await deps.db.delete(embedConfigs).where(eq(embedConfigs.id, id));
}

function presentChat(
  row: EmbedChatRow,
  embed: { id: number; uuid: string },
  workspace: { name: string; slug: string },
): EmbedChatView {
  return {
    id: row.id,
    prompt: row.prompt,
    response: row.response,
    session_id: row.sessionId,
    include: row.include,
    connection_information: row.connectionInformation,
    embed_id: row.embedId,
    usersId: null,
    createdAt: row.createdAt.toISOString(),
    embed_config: { id: embed.id, uuid: embed.uuid, workspace },
  };
}

/** One page of every embed's chats, newest first (the reference's `offset` counts pages of `limit`). */
export async function listEmbedChats(deps: Deps, page: number, limit: number): Promise<EmbedChatsPage> {
  const rows = await deps.db.select({
    chat: embedChats,
    embed: { id: embedConfigs.id, uuid: embedConfigs.uuid },
    workspace: { name: workspaces.name, slug: workspaces.slug },
  }).from(embedChats)
    .innerJoin(embedConfigs, eq(embedConfigs.id, embedChats.embedId))
    .innerJoin(workspaces, eq(workspaces.id, embedConfigs.workspaceId))
    .orderBy(desc(embedChats.id))
    .limit(limit)
    .offset(page * limit);
  const [total] = await deps.db.select({ value: count() }).from(embedChats);
  const totalChats = total?.value ?? 0;
  return {
    chats: rows.map((row) => presentChat(row.chat, row.embed, row.workspace)),
    hasPages: totalChats > (page + 1) * limit,
    totalChats,
  };
}

/** Deletes one embed chat; false when there is none with this id. */
export async function deleteEmbedChat(deps: Deps, id: number): Promise<boolean> {
  const deleted = await deps.db.delete(embedChats).where(eq(embedChats.id, id)).returning({
    id: embedChats.id,
  });
  return deleted.length > 0;
}

/** Chats of an embed in the last 24 hours, of one session when given (the reference counts every row). */
export async function chatsInLastDay(deps: Deps, embedId: number, sessionId?: string): Promise<number> {
  const since = new Date(Date.now() - DAY_MS);
  const [row] = await deps.db.select({ value: count() }).from(embedChats).where(
    and(
      eq(embedChats.embedId, embedId),
      gte(embedChats.createdAt, since),
      sessionId === undefined ? undefined : eq(embedChats.sessionId, sessionId),
    ),
  );
  return row?.value ?? 0;
}

function parseStored(response: string): StoredResponse | null {
  try {
    const parsed = JSON.parse(response);
    return typeof parsed?.text === "string" ? parsed as StoredResponse : null;
  } catch {
    return null;
  }
}

/** The session's visible chats, oldest first. */
export async function sessionChats(deps: Deps, embedId: number, sessionId: string, limit?: number) {
  const query = deps.db.select().from(embedChats).where(
    and(eq(embedChats.embedId, embedId), eq(embedChats.sessionId, sessionId), eq(embedChats.include, true)),
  ).orderBy(desc(embedChats.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.reverse();
}

/**
 * `GET /api/embed/:embedId/:sessionId`: the session's chats as history entries. Sources are left out, as the
 * reference does, so a page never shows a visitor excerpts of documents again later.
 */
export async function sessionHistory(deps: Deps, embedId: number, sessionId: string) {
  const entries: Record<string, unknown>[] = [];
  for (const row of await sessionChats(deps, embedId, sessionId)) {
    const response = parseStored(row.response);
    if (!response) continue;
    const sentAt = Math.floor(row.createdAt.getTime() / 1000);
    entries.push({ role: "user", content: row.prompt, sentAt, attachments: [], chatId: row.id });
    entries.push({
      type: response.type ?? "chart",
      role: "assistant",
      content: response.text,
      sources: [],
      chatId: row.id,
      sentAt,
      feedbackScore: null,
      metrics: response.metrics ?? {},
    });
  }
  return entries;
}

/** `DELETE /api/embed/:embedId/:sessionId`: the session's chats stay stored but leave its history. */
export async function resetSession(deps: Deps, embedId: number, sessionId: string): Promise<void> {
  await deps.db.update(embedChats).set({ include: false }).where(
    and(eq(embedChats.embedId, embedId), eq(embedChats.sessionId, sessionId)),
  );
}

/** What the reference records of the visitor with each chat. */
export interface Connection {
  host: string | null;
  ip: string;
  username: string | null;
}

/** The chat pipeline's store for one visitor session of an embed (server/chat/history.ts ChatStore). */
export function sessionStore(
  deps: Deps,
  embed: EmbedRow,
  sessionId: string,
  connection: Connection,
): ChatStore {
  return {
    async recent(): Promise<StoredExchange[]> {
      const rows = await sessionChats(
        deps,
        embed.id,
        sessionId,
        embed.messageLimit ?? DEFAULT_EMBED_MESSAGE_LIMIT,
      );
      return rows.flatMap((row) => {
        const response = parseStored(row.response);
        return response ? [{ prompt: row.prompt, response }] : [];
      });
    },
    async save(prompt, response, include) {
      const [row] = await deps.db.insert(embedChats).values({
        prompt,
        response: JSON.stringify(response),
        sessionId,
        include,
        connectionInformation: JSON.stringify(connection),
        embedId: embed.id,
      }).returning({ id: embedChats.id });
      return row.id;
    },
  };
}
