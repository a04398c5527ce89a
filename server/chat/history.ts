import { and, asc, count, desc, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import { workspaceChats } from "../../db/schema.ts";
import type { HistoryEntry, Metrics, Source } from "../../shared/api/chat.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import type { Database } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";

/** The JSON kept in `workspace_chats.response` (docs/api-compat.md#stored-chat). */
export interface StoredResponse {
  text: string;
  sources: Source[];
  /** Lectern's: the query searched when it was not the message (a follow-up rewritten with the conversation). */
  searchQuery?: string;
  type: string;
  attachments: unknown[];
  metrics: Partial<Metrics>;
  /** Only on an answer cut short by its client (Stop) or by a shutdown: the text is what came until then. */
  stopped?: true;
}

export type ChatRow = typeof workspaceChats.$inferSelect;

/** One earlier exchange as the model sees it again. */
export interface StoredExchange {
  prompt: string;
  response: StoredResponse;
}

/**
 * Where a chat's history is read from and its answer kept when it is not the workspace's own chats: an embed
 * widget's visitor session (server/embeds/) keeps them in `embed_chats`.
 */
export interface ChatStore {
  /** The exchanges the model sees again, oldest first. */
  recent(): Promise<StoredExchange[]>;
  /** Keeps an answer; `include: false` keeps it out of the history (a refusal). Returns the chat id. */
  save(prompt: string, response: StoredResponse, include: boolean): Promise<number>;
}

export interface ChatScope {
  workspaceId: number;
  /** Null for the workspace's default thread. */
  threadId: number | null;
  actor: Actor;
  /**
   * A developer API chat's session (`sessionId`; API_DEFAULT_SESSION without one). Its chats are hidden from
   * the UI, and the UI's (null) from it.
   */
  apiSessionId?: string | null;
}

/**
 * The session of developer API chats sent without a `sessionId`: they remember each other, and like every API
 * chat they stay out of the UI's history. The reference treats an empty `sessionId` as none, so no client can
 * name this session.
 */
export const API_DEFAULT_SESSION = "";

/** The API session's chats, or the UI's (no session). */
export function inSession(apiSessionId: string | null | undefined): SQL {
  return apiSessionId === null || apiSessionId === undefined
    ? isNull(workspaceChats.apiSessionId)
    : eq(workspaceChats.apiSessionId, apiSessionId);
}

/** Rows visible in a thread to this caller: in multi-user mode their own, in single-user mode all. */
function scopeFilter(scope: ChatScope): SQL {
  const conditions = [
    eq(workspaceChats.workspaceId, scope.workspaceId),
    scope.threadId === null ? isNull(workspaceChats.threadId) : eq(workspaceChats.threadId, scope.threadId),
    inSession(scope.apiSessionId),
    eq(workspaceChats.include, true),
  ];
  if (scope.actor.multiUser && scope.actor.userId !== null) {
    conditions.push(eq(workspaceChats.userId, scope.actor.userId));
  }
  return and(...conditions)!;
}

export function parseResponse(row: Pick<ChatRow, "response">): StoredResponse | null {
  try {
    const parsed = JSON.parse(row.response);
    return typeof parsed?.text === "string" ? parsed as StoredResponse : null;
  } catch {
    return null;
  }
}

/** The shape of a scope (default thread or not, API session or not, one user's or all): one query for each. */
function shapeOf(scope: ChatScope) {
  const thread = scope.threadId !== null;
  const session = scope.apiSessionId !== null && scope.apiSessionId !== undefined;
  const user = scope.actor.multiUser && scope.actor.userId !== null;
  return { name: `${thread} ${session} ${user}`, thread, session, user };
}

/** The conditions of a scope's shape, its values as placeholders (`recentParams`). */
function recentConditions({ thread, session, user }: ReturnType<typeof shapeOf>): SQL {
  const conditions = [
    eq(workspaceChats.workspaceId, sql.placeholder("workspaceId")),
    thread ? eq(workspaceChats.threadId, sql.placeholder("threadId")) : isNull(workspaceChats.threadId),
    session
      ? eq(workspaceChats.apiSessionId, sql.placeholder("apiSessionId"))
      : isNull(workspaceChats.apiSessionId),
    eq(workspaceChats.include, true),
  ];
  if (user) conditions.push(eq(workspaceChats.userId, sql.placeholder("userId")));
  return and(...conditions)!;
}

function recentParams(scope: ChatScope, limit: number) {
  return {
    workspaceId: scope.workspaceId,
    threadId: scope.threadId,
    apiSessionId: scope.apiSessionId ?? null,
    userId: scope.actor.userId,
    limit,
  };
}

/**
 * The last `limit` visible chats, oldest first; a limit of 0 means no history (the reference's 0 means 20).
 */
export async function recentChats(deps: Deps, scope: ChatScope, limit: number): Promise<ChatRow[]> {
  if (limit <= 0) return [];
  const shape = shapeOf(scope);
  const query = prepared(
    deps.db,
    `recent chats ${shape.name}`,
    (db) =>
      db.select().from(workspaceChats).where(recentConditions(shape)).orderBy(desc(workspaceChats.id))
        .limit(sql.placeholder("limit")).prepare(),
  );
  const rows = await query.all(recentParams(scope, limit));
  return rows.reverse();
}

/**
 * Answers parsed lately, by chat id, with the stored JSON they were parsed from; the oldest leaves first. 200 is
 * ten threads' histories of twenty: a few MB at most with their citations, which a small machine can spare.
 */
const parsedAnswers = new Map<number, { json: string; response: StoredResponse }>();
const PARSED_KEPT = 200;

/**
 * A stored answer, parsed once while it is recent: a thread's history is read again with every message (twenty
 * answers of a few kB each, their citations' texts included, about 0.7 ms of JSON.parse per chat under load).
 * The JSON read is compared with the one parsed, so an answer edited, or a row of another database with the same
 * id, is parsed again. The answer returned is shared: its readers never change it.
 */
function parsedAnswer(id: number, json: string): StoredResponse | null {
  const kept = parsedAnswers.get(id);
  if (kept && kept.json === json) return kept.response;
  const response = parseResponse({ response: json });
  if (!response) return null;
  if (kept) parsedAnswers.delete(id);
  else if (parsedAnswers.size >= PARSED_KEPT) parsedAnswers.delete(parsedAnswers.keys().next().value!);
  parsedAnswers.set(id, { json, response });
  return response;
}

/**
 * The exchanges a chat's model sees again: the last `limit` visible chats whose answer can be read, oldest
 * first (only the columns needed; each answer parsed once while it is recent). The answers are shared: read
 * them, never change them.
 */
export async function recentExchanges(
  deps: Deps,
  scope: ChatScope,
  limit: number,
): Promise<StoredExchange[]> {
  if (limit <= 0) return [];
  const shape = shapeOf(scope);
  const query = prepared(
    deps.db,
    `recent exchanges ${shape.name}`,
    (db) =>
      db.select({ id: workspaceChats.id, prompt: workspaceChats.prompt, response: workspaceChats.response })
        .from(workspaceChats).where(recentConditions(shape)).orderBy(desc(workspaceChats.id))
        .limit(sql.placeholder("limit")).prepare(),
  );
  const rows = await query.all(recentParams(scope, limit));
  const exchanges: StoredExchange[] = [];
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index];
    const response = parsedAnswer(row.id, row.response);
    if (response) exchanges.push({ prompt: row.prompt, response });
  }
  return exchanges;
}

/**
 * `GET …/chats`: every visible chat as a user entry and an assistant entry
 * (docs/api-compat.md#chat-history-shape).
 */
export async function historyOf(deps: Deps, scope: ChatScope): Promise<HistoryEntry[]> {
  const rows = await deps.db.select().from(workspaceChats).where(scopeFilter(scope)).orderBy(
    asc(workspaceChats.id),
  );
  return toHistory(rows);
}

/** Chat rows as history entries, in their order; a row whose response cannot be read is skipped. */
export function toHistory(rows: ChatRow[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const row of rows) {
    const response = parseResponse(row);
    if (!response) continue;
    const sentAt = Math.floor(row.createdAt.getTime() / 1000);
    entries.push({
      role: "user",
      content: row.prompt,
      sentAt,
      attachments: response.attachments ?? [],
      chatId: row.id,
    });
    entries.push({
      type: response.type ?? "chart",
      role: "assistant",
      content: response.text,
      sources: response.sources ?? [],
      chatId: row.id,
      sentAt,
      feedbackScore: row.feedbackScore,
      metrics: response.metrics ?? {},
      // Only when true, so complete answers keep the reference's exact shape.
      ...(response.stopped ? { stopped: true as const } : {}),
      ...(response.searchQuery ? { searchQuery: response.searchQuery } : {}),
    });
  }
  return entries;
}

type ChatInsert = typeof workspaceChats.$inferInsert;

interface QueuedChat {
  values: ChatInsert;
  resolve: (id: number) => void;
  reject: (error: unknown) => void;
}

/** Chats waiting to be written, per database: those saved in the same turn of the event loop go together. */
const queues = new WeakMap<Database, QueuedChat[]>();

/**
 * Chats one INSERT statement writes at most: SQLite binds at most 32,766 parameters in one statement, and a chat
 * row binds 7 (its other columns' defaults are written into the SQL).
 */
export const CHATS_PER_STATEMENT = 1_000;

/**
 * Writes the queued chats in one transaction: one commit (one sync of the write-ahead log) instead of one per
 * chat. With hundreds of answers ending at once, a commit per chat held the event loop for the disk's sync
 * each time, and every other stream waited. The rows go in one multi-row INSERT (per `CHATS_PER_STATEMENT`)
 * rather than a statement each: libSQL's local client prepares every statement anew on the server's one
 * thread, and a batch of 62 chats took 7.0 ms of that thread against 3.0 ms as one statement (200 chats: 18.6
 * against 8.3 ms). When the write fails, each chat is written alone, so that one bad row (its thread deleted
 * meanwhile) fails only its own save.
 */
async function flushChats(db: Database, queued: QueuedChat[]): Promise<void> {
  const insert = (values: ChatInsert[]) =>
    db.insert(workspaceChats).values(values).returning({ id: workspaceChats.id });
  if (queued.length > 1) {
    let ids: number[] | null = null;
    try {
      const statements = [];
      for (let at = 0; at < queued.length; at += CHATS_PER_STATEMENT) {
        statements.push(insert(queued.slice(at, at + CHATS_PER_STATEMENT).map((chat) => chat.values)));
      }
      const [first, ...rest] = statements;
      // A statement's rows take increasing ids in the order of its values, and each statement follows the one
      // before; RETURNING's order is left unspecified by SQLite, so the ids are put in order.
      ids = (await db.batch([first, ...rest])).flatMap((rows) =>
        rows.map((row) => row.id).sort((a, b) => a - b)
      );
    } catch {
      ids = null; // written one by one below
    }
    if (ids) {
      queued.forEach((chat, index) => chat.resolve(ids![index]));
      return;
    }
  }
  for (const chat of queued) {
    try {
      const [row] = await insert([chat.values]);
      chat.resolve(row.id);
    } catch (error) {
      chat.reject(error);
    }
  }
}

export function saveChat(
  deps: Deps,
  scope: ChatScope,
  prompt: string,
  response: StoredResponse,
  include = true,
): Promise<number> {
  const { db } = deps;
  return new Promise((resolve, reject) => {
    const values: ChatInsert = {
      workspaceId: scope.workspaceId,
      threadId: scope.threadId,
      userId: scope.actor.userId,
      prompt,
      response: JSON.stringify(response),
      include,
      apiSessionId: scope.apiSessionId ?? null,
    };
    let queue = queues.get(db);
    if (!queue) {
      queue = [];
      queues.set(db, queue);
      setTimeout(() => {
        queues.delete(db);
        flushChats(db, queue!).catch(() => {});
      }, 0);
    }
    queue.push({ values, resolve, reject });
  });
}

/** Chats a user sent in the last 24 hours, for the daily message limit. */
export async function chatsInLastDay(deps: Deps, userId: number): Promise<number> {
  const [row] = await deps.db.select({ value: count() }).from(workspaceChats).where(
    and(
      eq(workspaceChats.userId, userId),
      gt(workspaceChats.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)),
    ),
  );
  return row?.value ?? 0;
}

/** Keeps an answer where its turn keeps them: the embed session's store, else the workspace's chats. */
export function keepChat(
  deps: Deps,
  turn: { scope: ChatScope; input: { message: string; store?: ChatStore } },
  response: StoredResponse,
  include = true,
): Promise<number> {
  const { store, message } = turn.input;
  return store
    ? store.save(message, response, include)
    : saveChat(deps, turn.scope, message, response, include);
}
