import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { sql } from "drizzle-orm";
import {
  documentSyncQueues,
  embedChats,
  embedConfigs,
  slashCommandPresets,
  systemPromptVariables,
  workspaceChats,
  workspaceDocuments,
  workspacePromptHistory,
  workspaceSuggestedMessages,
  workspaceThreads,
} from "../../db/schema.ts";
import { signSession } from "../../server/auth/jwt.ts";
import { seedDocument } from "../../server/documents/library_fixtures.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import type { TestApp } from "../../server/testing/test_app.ts";
import { makeApiKey } from "../../server/testing/api_keys.ts";

/** The callers of the role walk; `default` is the default user Dora. */
export type Role = "admin" | "manager" | "default";
/** Everyone with objects in the world: the three roles and Eve, a second default user. */
export type Person = Role | "eve";
export const PEOPLE: Person[] = ["admin", "manager", "default", "eve"];

/** The text of another user's chats: no answer to someone else may contain it. */
export const secretOf = (person: Person, where: string) => `SECRET-${person.toUpperCase()}-${where}`;

export const PERMISSION_REFUSAL = "You do not have permission to do that.";

/** The smallest PNG: 1×1, transparent. */
export const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);

export interface Place {
  id: number;
  slug: string;
}

/**
 * A multi-user instance with objects for everyone: the workspace "team" (members Dora and Eve), the workspace
 * "vault" (member Eve only; Dora is not in it), per person a thread and a chat in team's default thread and in
 * their thread, a slash-command preset, a file attached to the chat of team's default thread (a parsed file), a
 * watched link document with its sync queue, a plain document in the folder "archive", and a pending invite; Eve
 * has files attached in her thread of team and in the vault. Each workspace has an earlier system prompt in its
 * history, and an admin has stored a prompt variable. Chats, prompt history and variables are written to the
 * database (no language model needed); parsed files are attached through the API, as each person.
 */
export interface World {
  app: TestApp;
  sessions: Record<Person, Session>;
  ids: Record<Person, number>;
  tokens: Record<Person, string>;
  team: Place;
  vault: Place;
  threads: Record<Person, string>;
  chats: Record<Person, number>;
  threadChats: Record<Person, number>;
  presets: Record<Person, number>;
  /** Each person's file attached in team's default thread (ids of `workspace_parsed_files`). */
  parsedFiles: Record<Person, number>;
  /** Eve's file attached in her thread of team. */
  eveThreadFile: number;
  /** Eve's file attached in the vault's default thread. */
  vaultFile: number;
  /** A prompt variable an admin stored. */
  promptVariable: number;
  /** A developer API key the admin made. */
  apiKey: number;
  /** An earlier system prompt of team, and one of the vault (its text is a secret of the vault's members). */
  teamHistory: number;
  vaultHistory: number;
  /** Eve's chat in the vault's default thread. */
  vaultChat: number;
  /** Eve's thread in the vault. */
  vaultThread: string;
  /** A document added from a link, in team, pinned and watched. */
  linkDoc: string;
  /** A document in the folder "archive". */
  archiveDoc: string;
  queueId: number;
  invite: { id: number; code: string };
  /** An embed widget of team (any site), and one chat a visitor had through it. */
  embed: { id: number; uuid: string };
  embedChat: number;
}

export async function buildWorld(app: TestApp): Promise<World> {
  const admin = await multiUserInstance(app);
  const sessions: Record<Person, Session> = {
    admin,
    manager: await addUser(app, admin, "manny", "manager"),
    default: await addUser(app, admin, "dora", "default"),
    eve: await addUser(app, admin, "eve", "default"),
  };
  const ids = Object.fromEntries(PEOPLE.map((person) => [person, sessions[person].user.id])) as Record<
    Person,
    number
  >;
  const tokens = Object.fromEntries(PEOPLE.map((person) => [person, sessions[person].token])) as Record<
    Person,
    string
  >;

  const place = async (name: string, members: Person[]): Promise<Place> => {
    const created = await app.json<{ workspace: Place }>("/api/workspace/new", {
      ...bearer(admin.token),
      json: { name },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { id, slug } = created.body.workspace;
    const set = await app.json(`/api/admin/workspaces/${id}/update-users`, {
      ...bearer(admin.token),
      json: { userIds: members.map((person) => ids[person]) },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    return { id, slug };
  };
  const team = await place("Team", ["admin", "default", "eve"]);
  const vault = await place("Vault", ["admin", "eve"]);
  const db = app.deps.db;
  await db.insert(workspaceSuggestedMessages).values({
    workspaceId: vault.id,
    heading: secretOf("admin", "SUGGESTION"),
    message: "Only vault members see this.",
  });

  const chat = async (person: Person, workspaceId: number, threadId: number | null, where: string) => {
    const [row] = await db.insert(workspaceChats).values({
      workspaceId,
      threadId,
      userId: ids[person],
      prompt: `${secretOf(person, where)} question`,
      response: JSON.stringify({ text: `${secretOf(person, where)} answer`, sources: [], type: "chat" }),
    }).returning();
    return row.id;
  };
  const threads = {} as Record<Person, string>;
  const chats = {} as Record<Person, number>;
  const threadChats = {} as Record<Person, number>;
  const presets = {} as Record<Person, number>;
  for (const person of PEOPLE) {
    chats[person] = await chat(person, team.id, null, "TEAM");
    const [thread] = await db.insert(workspaceThreads).values({
      name: `Thread of ${person}`,
      slug: `thread-of-${person}`,
      workspaceId: team.id,
      userId: ids[person],
    }).returning();
    threads[person] = thread.slug;
    threadChats[person] = await chat(person, team.id, thread.id, "THREAD");
    const [preset] = await db.insert(slashCommandPresets).values({
      command: `/mine-${person}`,
      prompt: `${secretOf(person, "PRESET")} prompt`,
      description: "",
      uid: ids[person],
      userId: ids[person],
    }).returning();
    presets[person] = preset.id;
  }
  const vaultChat = await chat("eve", vault.id, null, "VAULT");
  const [vaultThreadRow] = await db.insert(workspaceThreads).values({
    name: "Eve's vault thread",
    slug: "eve-vault-thread",
    workspaceId: vault.id,
    userId: ids.eve,
  }).returning();
  await chat("eve", vault.id, vaultThreadRow.id, "VAULT-THREAD");

  const attach = async (person: Person, slug: string, where: string, threadSlug?: string) => {
    const form = new FormData();
    form.append(
      "file",
      new File([`${secretOf(person, where)} attached text`], `${secretOf(person, where)}.txt`),
    );
    if (threadSlug) form.append("threadSlug", threadSlug);
    const answer = await app.json<{ files: { id: number }[] }>(`/api/workspace/${slug}/parse`, {
      ...bearer(tokens[person]),
      method: "POST",
      body: form,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.files[0].id;
  };
  const parsedFiles = {} as Record<Person, number>;
  for (const person of PEOPLE) parsedFiles[person] = await attach(person, team.slug, "ATTACHED");
  const eveThreadFile = await attach("eve", team.slug, "ATTACHED-THREAD", threads.eve);
  const vaultFile = await attach("eve", vault.slug, "ATTACHED-VAULT");

  const [variable] = await db.insert(systemPromptVariables).values({
    key: "harbour_name",
    value: "Port Lectern",
    description: "The harbour's name",
    userId: ids.admin,
  }).returning();
  const apiKey = await makeApiKey(app, { name: "harbour scripts" }, admin.token);
  const history = async (workspaceId: number, prompt: string) => {
    const [row] = await db.insert(workspacePromptHistory).values({
      workspaceId,
      prompt,
      modifiedBy: ids.admin,
    })
      .returning();
    return row.id;
  };
  const teamHistory = await history(team.id, "Answer from the harbour documents.");
  const vaultHistory = await history(vault.id, `${secretOf("admin", "VAULT-HISTORY")} earlier prompt`);

  // A link on loopback: should anything fetch it, no traffic leaves the machine (and the URL guard refuses it).
  const linkDoc = await seedDocument(app.deps, "Harbour notice", {
    chunkSource: "link://http://127.0.0.1:9/notice",
    text: "The harbour opens at seven.",
  });
  const archiveDoc = await seedDocument(app.deps, "Old minutes", { folder: "archive" });
  const [workspaceDoc] = await db.insert(workspaceDocuments).values({
    docId: crypto.randomUUID(),
    filename: linkDoc.location.split("/")[1],
    docpath: linkDoc.location,
    workspaceId: team.id,
    pinned: true,
    watched: true,
    metadata: "{}",
  }).returning();
  const [queue] = await db.insert(documentSyncQueues).values({
    workspaceDocId: workspaceDoc.id,
    nextSyncAt: new Date(Date.now() + 7 * 24 * 3600_000),
  }).returning();

  const [embed] = await db.insert(embedConfigs).values({
    uuid: crypto.randomUUID(),
    enabled: true,
    workspaceId: team.id,
  }).returning();
  const [embedChat] = await db.insert(embedChats).values({
    prompt: "When does the harbour open?",
    response: JSON.stringify({ text: "At seven.", sources: [], type: "query" }),
    sessionId: crypto.randomUUID(),
    embedId: embed.id,
  }).returning();

  const invited = await app.json<{ invite: { id: number; code: string } }>("/api/admin/invite/new", {
    ...bearer(admin.token),
    json: { workspaceIds: [team.id] },
  });
  assert.equal(invited.status, 200, JSON.stringify(invited.body));

  return {
    app,
    sessions,
    ids,
    tokens,
    team,
    vault,
    threads,
    chats,
    threadChats,
    presets,
    parsedFiles,
    eveThreadFile,
    vaultFile,
    promptVariable: variable.id,
    apiKey: apiKey.id,
    teamHistory,
    vaultHistory,
    vaultChat,
    vaultThread: vaultThreadRow.slug,
    linkDoc: linkDoc.location,
    archiveDoc: archiveDoc.location,
    queueId: queue.id,
    invite: { id: invited.body.invite.id, code: invited.body.invite.code },
    embed: { id: embed.id, uuid: embed.uuid },
    embedChat: embedChat.id,
  };
}

/** Tokens that must all be refused: another key, expired, a changed payload, and no signature at all. */
export async function badTokens(
  app: TestApp,
  valid: string,
  userId: number,
): Promise<Record<string, string>> {
  const [header, payload] = valid.split(".");
  const claims = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload)));
  const promoted = base64UrlEncode(JSON.stringify({ ...claims, sub: "1", role: "admin" }));
  const unsignedHeader = base64UrlEncode(JSON.stringify({ alg: "none", typ: "JWT" }));
  return {
    "signed with another key": await signSession(crypto.getRandomValues(new Uint8Array(32)), {
      sub: String(userId),
      ver: 0,
    }),
    "expired": await signSession(app.deps.keys.jwt, { sub: String(userId), ver: 0 }, "-1s"),
    "payload changed after signing": `${header}.${promoted}.${valid.split(".")[2]}`,
    "unsigned (alg none)": `${unsignedHeader}.${payload}.`,
  };
}

function base64UrlEncode(text: string): string {
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64UrlDecode(text: string): Uint8Array {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

/**
 * Everything a request could change: every table of the database, row by row, and the files of the storage
 * folder (the database files themselves excepted). Compared before and after a refused call.
 */
export async function snapshot(app: TestApp): Promise<Map<string, string>> {
  const state = new Map<string, string>();
  const tables = await app.deps.db.all<{ name: string }>(
    sql`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`,
  );
  for (const { name } of tables) {
    // The job runner renews its lease on a timer (server/jobs/), whatever the requests do.
    if (name === "job_leases") continue;
    const rows = await app.deps.db.all(sql.raw(`SELECT * FROM "${name.replace(/"/g, '""')}" ORDER BY rowid`));
    state.set(`table ${name}`, JSON.stringify(rows));
  }
  const files: string[] = [];
  const walk = async (directory: string) => {
    for await (const entry of Deno.readDir(directory)) {
      const path = join(directory, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (!/^lectern\.db/.test(entry.name)) {
        files.push(`${relative(app.storageDir, path)} ${(await Deno.stat(path)).size}`);
      }
    }
  };
  await walk(app.storageDir);
  state.set("files", files.sort().join("\n"));
  return state;
}

/** The parts of the state that differ (empty when nothing changed). */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key));
}
