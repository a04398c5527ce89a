import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { embedChats, embedConfigs, users, workspaceChats, workspaces } from "../../db/schema.ts";
import {
  CHAT_EXPORT_CONTENT_TYPES,
  CHAT_EXPORT_EXTENSIONS,
  type ChatExportType,
} from "../../shared/api/chat_export.ts";
import type { SettingsService } from "../settings/service.ts";
import { instanceDefaultPrompt } from "../system/default_prompt.ts";

/**
 * Workspace chats exported in the reference's formats (its `convertTo.js`): csv, json, jsonl (one line of
 * `{messages}` per workspace, for fine-tuning) and jsonAlpaca (`{instruction, input, output}`). Every chat of
 * every workspace and thread is exported, oldest first, including the chats made through the developer API
 * (`api_session_id` set; their user is "API") and those left out of the history (`/reset`, query refusals), as
 * the reference does.
 *
 * The rows are read from the database a page at a time (keyset on the chat id) while the answer is written, so
 * an export of any size holds one page in memory; a client that goes away stops the reading.
 */

export interface ChatExportDeps {
  db: Database;
  settings: SettingsService;
}

/** Which chats: the workspaces' (default) or the embed widgets' (`chatType=embed`). */
export type ChatExportSource = "workspace" | "embed";

export interface ChatExportOptions {
  /** The workspaces' chats (default) or the embed widgets' chats. */
  chatType?: ChatExportSource;
  /** Chats read per query (default 500). */
  pageSize?: number;
  /** Text gathered before it is handed to the stream (default 64 KiB). */
  chunkChars?: number;
}

export interface ChatExport {
  contentType: string;
  /** A file name for the download, e.g. `chats.jsonl`. */
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/** One chat with what the formats show of its workspace and user. */
export interface ExportRow {
  id: number;
  workspaceId: number;
  prompt: string;
  response: string;
  createdAt: Date;
  apiSessionId: string | null;
  feedbackScore: boolean | null;
  workspaceName: string | null;
  workspacePrompt: string | null;
  username: string | null;
}

interface StoredAnswer {
  text?: string;
  sources?: { text?: unknown }[];
  attachments?: { dataUrl?: unknown; contentString?: unknown; mime?: unknown }[];
}

const DEFAULT_PAGE_SIZE = 500;
const DEFAULT_CHUNK_CHARS = 64 * 1024;

function parseAnswer(response: string): StoredAnswer {
  try {
    const parsed = JSON.parse(response);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** An image kept with a chat as a data URL (Lectern keeps `dataUrl`, the reference `contentString`). */
function imageOf(attachment: NonNullable<StoredAnswer["attachments"]>[number]): string {
  if (typeof attachment?.dataUrl === "string") return attachment.dataUrl;
  const content = typeof attachment?.contentString === "string" ? attachment.contentString : "";
  return content.startsWith("data:") ? content : `data:${String(attachment?.mime ?? "")};base64,${content}`;
}

function imagesOf(answer: StoredAnswer): { type: "image"; image: string }[] {
  const attachments = Array.isArray(answer.attachments) ? answer.attachments : [];
  return attachments.map((attachment) => ({ type: "image" as const, image: imageOf(attachment) }));
}

/** Every chat (of one workspace, when given), oldest first, read `pageSize` rows per query. */
export async function* chatRows(
  db: Database,
  pageSize: number,
  workspaceId?: number,
): AsyncGenerator<ExportRow> {
  let after = 0;
  while (true) {
    const conditions: SQL[] = [gt(workspaceChats.id, after)];
    if (workspaceId !== undefined) conditions.push(eq(workspaceChats.workspaceId, workspaceId));
    const rows = await db.select({
      id: workspaceChats.id,
      workspaceId: workspaceChats.workspaceId,
      prompt: workspaceChats.prompt,
      response: workspaceChats.response,
      createdAt: workspaceChats.createdAt,
      apiSessionId: workspaceChats.apiSessionId,
      feedbackScore: workspaceChats.feedbackScore,
      workspaceName: workspaces.name,
      workspacePrompt: workspaces.openAiPrompt,
      username: users.username,
    }).from(workspaceChats)
      .leftJoin(workspaces, eq(workspaces.id, workspaceChats.workspaceId))
      .leftJoin(users, eq(users.id, workspaceChats.userId))
      .where(and(...conditions))
      .orderBy(asc(workspaceChats.id))
      .limit(pageSize);
    yield* rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}

/**
 * Every embed widget chat (of the embeds of one workspace, when given), oldest first, as export rows: the
 * workspace is the embed's; there is no user or rating.
 */
export async function* embedChatRows(
  db: Database,
  pageSize: number,
  workspaceId?: number,
): AsyncGenerator<ExportRow> {
  let after = 0;
  while (true) {
    const conditions: SQL[] = [gt(embedChats.id, after)];
    if (workspaceId !== undefined) conditions.push(eq(embedConfigs.workspaceId, workspaceId));
    const rows = await db.select({
      id: embedChats.id,
      workspaceId: embedConfigs.workspaceId,
      prompt: embedChats.prompt,
      response: embedChats.response,
      createdAt: embedChats.createdAt,
      workspaceName: workspaces.name,
      workspacePrompt: workspaces.openAiPrompt,
    }).from(embedChats)
      .innerJoin(embedConfigs, eq(embedConfigs.id, embedChats.embedId))
      .leftJoin(workspaces, eq(workspaces.id, embedConfigs.workspaceId))
      .where(and(...conditions))
      .orderBy(asc(embedChats.id))
      .limit(pageSize);
    for (const row of rows) yield { ...row, apiSessionId: null, feedbackScore: null, username: null };
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}

/** The user column: the user's name, "API" for a developer API chat, else "unknown user" (single-user mode). */
function usernameOf(row: ExportRow): string {
  return row.username ?? (row.apiSessionId !== null ? "API" : "unknown user");
}

function ratingOf(row: ExportRow): string {
  return row.feedbackScore === null ? "--" : row.feedbackScore ? "GOOD" : "BAD";
}

/**
 * A csv or json record, with the reference's keys in its order (json adds the images); an embed chat has no
 * user or rating, as the reference's.
 */
export function exportRecord(
  row: ExportRow,
  format: "csv" | "json",
  chatType: ChatExportSource = "workspace",
): Record<string, unknown> {
  const answer = parseAnswer(row.response);
  if (chatType === "embed") {
    return {
      id: row.id,
      prompt: row.prompt,
      response: answer.text,
      sent_at: row.createdAt,
      ...(format === "json" ? { attachments: imagesOf(answer) } : {}),
      workspace: row.workspaceName ?? "unknown workspace",
    };
  }
  return {
    id: row.id,
    prompt: row.prompt,
    response: answer.text,
    sent_at: row.createdAt,
    ...(format === "json" ? { attachments: imagesOf(answer) } : {}),
    workspace: row.workspaceName ?? "unknown workspace",
    username: usernameOf(row),
    rating: ratingOf(row),
  };
}

const CSV_HEADERS = ["id", "workspace", "prompt", "response", "sent_at", "username", "rating"];
const EMBED_CSV_HEADERS = ["id", "workspace", "prompt", "response", "sent_at"];

/** The reference's cell: quoted, quotes doubled, line breaks made spaces; a date as `Date.toString()` gives it. */
function csvCell(value: unknown): string {
  return `"${String(value ?? "").replace(/"/g, '""').replace(/\n/g, " ")}"`;
}

async function* csv(rows: AsyncIterable<ExportRow>, chatType: ChatExportSource): AsyncGenerator<string> {
  const headers = chatType === "embed" ? EMBED_CSV_HEADERS : CSV_HEADERS;
  yield headers.join(",");
  for await (const row of rows) {
    const record = exportRecord(row, "csv", chatType);
    yield `\n${headers.map((header) => csvCell(record[header])).join(",")}`;
  }
}

/** `JSON.stringify(items, null, 4)`, written one item at a time. */
async function* prettyArray(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  let first = true;
  for await (const item of items) {
    const text = JSON.stringify(item, null, 4).replace(/\n/g, "\n    ");
    yield `${first ? "[\n" : ",\n"}    ${text}`;
    first = false;
  }
  yield first ? "[]" : "\n]";
}

async function* mapRows<T>(rows: AsyncIterable<ExportRow>, map: (row: ExportRow) => T): AsyncGenerator<T> {
  for await (const row of rows) yield map(row);
}

/** The system prompt a workspace's chats were answered with: its own, else the instance's default. */
function systemPromptOf(deps: ChatExportDeps, row: ExportRow): string {
  return row.workspacePrompt || instanceDefaultPrompt(deps.settings);
}

/** jsonAlpaca's instruction: the system prompt, then the cited context as the reference lays it out. */
function alpacaInstruction(deps: ChatExportDeps, row: ExportRow, answer: StoredAnswer): string {
  const sources = Array.isArray(answer.sources) ? answer.sources : [];
  const context = sources.length > 0
    ? "\nContext:\n" +
      sources.map((source, index) => `[CONTEXT ${index}]:\n${source?.text}\n[END CONTEXT ${index}]\n\n`).join(
        "",
      )
    : "";
  return `${systemPromptOf(deps, row)}${context}`;
}

/** jsonl: one line per workspace (by id), `{"messages":[system, user, assistant, …]}`, lines joined by `\n`. */
async function* jsonl(
  deps: ChatExportDeps,
  pageSize: number,
  chatType: ChatExportSource,
): AsyncGenerator<string> {
  // Embed chats are grouped by their embed's workspace (the reference puts them all in one line).
  const ids = chatType === "embed"
    ? await deps.db.selectDistinct({ id: embedConfigs.workspaceId }).from(embedChats)
      .innerJoin(embedConfigs, eq(embedConfigs.id, embedChats.embedId))
      .orderBy(asc(embedConfigs.workspaceId))
    : await deps.db.selectDistinct({ id: workspaceChats.workspaceId }).from(workspaceChats)
      .orderBy(asc(workspaceChats.workspaceId));
  const rowsOf = chatType === "embed" ? embedChatRows : chatRows;
  let line = 0;
  for (const { id } of ids) {
    let opened = false;
    for await (const row of rowsOf(deps.db, pageSize, id)) {
      if (!opened) {
        const system = { role: "system", content: [{ type: "text", text: systemPromptOf(deps, row) }] };
        yield `${line > 0 ? "\n" : ""}{"messages":[${JSON.stringify(system)}`;
        opened = true;
        line++;
      }
      const answer = parseAnswer(row.response);
      const user = { role: "user", content: [{ type: "text", text: row.prompt }, ...imagesOf(answer)] };
      const assistant = { role: "assistant", content: [{ type: "text", text: answer.text }] };
      yield `,${JSON.stringify(user)},${JSON.stringify(assistant)}`;
    }
    if (opened) yield "]}";
  }
}

/** Gathers small pieces of text into chunks of about `size` characters. */
async function* gathered(pieces: AsyncIterable<string>, size: number): AsyncGenerator<string> {
  let buffer = "";
  for await (const piece of pieces) {
    buffer += piece;
    if (buffer.length >= size) {
      yield buffer;
      buffer = "";
    }
  }
  if (buffer.length > 0) yield buffer;
}

/** The text of an export, piece by piece. */
export function exportText(
  deps: ChatExportDeps,
  type: ChatExportType,
  options: ChatExportOptions = {},
): AsyncGenerator<string> {
  const pageSize = Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE);
  const chatType = options.chatType ?? "workspace";
  const rows = () => chatType === "embed" ? embedChatRows(deps.db, pageSize) : chatRows(deps.db, pageSize);
  switch (type) {
    case "csv":
      return csv(rows(), chatType);
    case "json":
      return prettyArray(mapRows(rows(), (row) => exportRecord(row, "json", chatType)));
    case "jsonAlpaca":
      return prettyArray(mapRows(rows(), (row) => {
        const answer = parseAnswer(row.response);
        return { instruction: alpacaInstruction(deps, row, answer), input: row.prompt, output: answer.text };
      }));
    case "jsonl":
      return jsonl(deps, pageSize, chatType);
  }
}

/**
 * Every workspace chat (or, with `chatType: "embed"`, every embed widget chat) in `type`'s format, as a stream
 * read from the database while it is sent.
 */
export function exportChats(
  deps: ChatExportDeps,
  type: ChatExportType,
  options: ChatExportOptions = {},
): ChatExport {
  const pieces = gathered(exportText(deps, type, options), options.chunkChars ?? DEFAULT_CHUNK_CHARS);
  return {
    contentType: CHAT_EXPORT_CONTENT_TYPES[type],
    filename: `${options.chatType === "embed" ? "embed-chats" : "chats"}.${CHAT_EXPORT_EXTENSIONS[type]}`,
    body: ReadableStream.from(pieces).pipeThrough(new TextEncoderStream()),
  };
}
