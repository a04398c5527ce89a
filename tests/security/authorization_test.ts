/**
 * Security suite, class authorization (issue 13): every API route for every role and for broken tokens, other
 * users' objects, and a password-protected single-user instance. Each hostile case is a step named
 * `[authorization] <what it proves>`; a refused call must also leave the database and the storage folder as
 * they were.
 */
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import {
  embedChats,
  embedConfigs,
  slashCommandPresets,
  systemPromptVariables,
  users,
  workspaceChats,
  workspaceParsedFiles,
  workspacePromptHistory,
  workspaceSuggestedMessages,
  workspaceThreads,
  workspaceUsers,
} from "../../db/schema.ts";
import { createApp } from "../../server/app.ts";
import { appRoutes } from "../../server/http/lazy_routes.ts";
import { signSession } from "../../server/auth/jwt.ts";
import { seedDocument } from "../../server/documents/library_fixtures.ts";
import { bearer } from "../../server/testing/accounts.ts";
import { makeApiKey } from "../../server/testing/api_keys.ts";
import { createTestApp, type TestApp } from "../../server/testing/test_app.ts";
import {
  allowedRoles,
  type Call,
  type Caller,
  DEVELOPER_API_DOCS,
  MIDDLEWARE,
  NOT_YET_FAMILIES,
  notYetLeast,
  notYetPath,
  refusedRoles,
  ROUTES,
} from "./authorization_routes.ts";
import { MISSING_CALLS, type MissingCall } from "../../server/system/not_yet.ts";
import {
  badTokens,
  buildWorld,
  changes,
  PEOPLE,
  PERMISSION_REFUSAL,
  type Person,
  PNG,
  secretOf,
  snapshot,
  type World,
} from "./authorization_world.ts";

interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  text: string;
  headers: Headers;
}

async function send(app: TestApp, call: Call, token?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (call.form) body = call.form();
  else if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers["Content-Type"] = "application/json";
  }
  const response = await app.request(call.path, { method: call.method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

/** Sends a call that must change nothing: the database and the storage folder are compared around it. */
async function sendUnchanged(app: TestApp, call: Call, token?: string): Promise<Answer> {
  const before = await snapshot(app);
  const answer = await send(app, call, token);
  const changed = changes(before, await snapshot(app));
  assert.deepEqual(changed, [], `${call.method} ${call.path} changed ${changed.join(", ")}`);
  return answer;
}

/** Runs `calls` (several sends of `call`) and checks that together they changed nothing. */
async function unchangedAcross(app: TestApp, call: Call, calls: () => Promise<void>) {
  const before = await snapshot(app);
  await calls();
  const changed = changes(before, await snapshot(app));
  assert.deepEqual(changed, [], `${call.method} ${call.path} changed ${changed.join(", ")}`);
}

const describe = (call: Call) => `${call.method} ${call.path}`;

function assertPermissionRefusal(answer: Answer, call: Call) {
  assert.equal(answer.status, 403, `${describe(call)}: ${answer.text.slice(0, 300)}`);
  const message = answer.body?.error ?? answer.body?.message;
  assert.equal(message, PERMISSION_REFUSAL, `${describe(call)}: ${answer.text.slice(0, 300)}`);
}

/**
 * A workspace the caller cannot see does not exist for them, whatever the call (server/workspaces/access.ts):
 * 404, as the reference answers a default user for a workspace outside her memberships.
 */
function assertHiddenWorkspace(answer: Answer, call: Call, sentence = "Workspace does not exist.") {
  assert.equal(answer.status, 404, `${describe(call)}: ${answer.text.slice(0, 300)}`);
  const message = answer.body?.error ?? answer.body?.message;
  assert.equal(message, sentence, `${describe(call)}: ${answer.text.slice(0, 300)}`);
}

/** The session guard's answers (server/http/auth_guard.ts): a caller who got past it never sees them. */
const GUARD_ANSWERS = [
  "No auth token found.",
  "Invalid auth token.",
  "Invalid auth for user.",
  "User is suspended from system",
  "Token expired or failed validation.",
  "Invalid auth credentials.",
];

function assertPassed(answer: Answer, call: Call, expected: number) {
  const shown = `${describe(call)}: ${answer.status} ${answer.text.slice(0, 300)}`;
  const message = answer.body?.error ?? answer.body?.message;
  assert.ok(!GUARD_ANSWERS.includes(message), shown);
  assert.notEqual(message, PERMISSION_REFUSAL, shown);
  assert.equal(answer.status, expected, shown);
}

/** What a call of a feature still to come answers (server/system/not_yet.ts). */
const notYetBody = (family: MissingCall) => ({
  success: false,
  error: family.sentence,
  message: family.sentence,
  ...(family.field ? { [family.field]: family.sentence } : {}),
});
/** The methods a family answered for every method is tried with. */
const ANY_METHOD = ["GET", "POST", "PUT", "DELETE"];
const methodCall = (method: string, path: string): Call => ({
  method,
  path,
  json: method === "GET" ? undefined : {},
});

/** The developer API's routes answer to keys, not roles: tests/security/developer_api_test.ts walks them. */
const isDeveloperApi = (path: string) => path === "/api/v1" || path.startsWith("/api/v1/");
const routeKeys = async (app: TestApp) =>
  new Set(
    (await appRoutes(createApp(app.deps))).filter((route) =>
      route.method !== "ALL" && !isDeveloperApi(route.path)
    ).map((
      route,
    ) => `${route.method} ${route.path}`),
  );

Deno.test("authorization: every route in multi-user mode, for every role and for broken tokens", async (t) => {
  await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1" } });
  const w = await buildWorld(app);
  const broken = await badTokens(app, w.tokens.default, w.ids.default);
  const entries = Object.entries(ROUTES);

  await t.step(
    "[authorization] the route table classifies every route the app serves, and only those",
    async () => {
      const served = await routeKeys(app);
      const unclassified = [...served].filter((key) => !(key in ROUTES));
      const gone = Object.keys(ROUTES).filter((key) => !served.has(key));
      assert.deepEqual(unclassified, [], "new routes need a line in tests/security/authorization_routes.ts");
      assert.deepEqual(gone, [], "routes in the table that the app no longer serves");
    },
  );
  await t.step(
    "[authorization] every catch-all (ALL) route is known middleware or a family of calls not built yet",
    async () => {
      const served = new Set(
        (await appRoutes(createApp(app.deps))).filter((route) => route.method === "ALL").map((route) =>
          `ALL ${route.path}`
        ),
      );
      const families = new Set(
        NOT_YET_FAMILIES.flatMap((family) => family.paths.map((path) => `ALL /api${path}`)),
      );
      const unknown = [...served].filter((key) => !(key in MIDDLEWARE) && !families.has(key));
      assert.deepEqual(unknown, [], "a new ALL route needs a line in MIDDLEWARE or a row in ROUTES");
      assert.deepEqual([...families].filter((key) => !served.has(key)), [], "families not served");
      assert.deepEqual(Object.keys(MIDDLEWARE).filter((key) => !served.has(key)), [], "middleware gone");
    },
  );

  // Refusals first, while every fixture is in place: each must leave the state as it was.
  for (const [key, rule] of entries) {
    if (rule.least === "public") continue;
    await t.step(`[authorization] without a token ${key} answers 401 and changes nothing`, async () => {
      const call = rule.call(w, "anonymous");
      const answer = await sendUnchanged(app, call);
      assert.equal(answer.status, 401, describe(call));
      assert.deepEqual(answer.body, { error: "No auth token found." });
    });
    await t.step(
      `[authorization] a forged, expired, altered or unsigned JWT gets 401 from ${key}`,
      async () => {
        const call = rule.call(w, "anonymous");
        await unchangedAcross(app, call, async () => {
          for (const [kind, token] of Object.entries(broken)) {
            const answer = await send(app, call, token);
            assert.equal(answer.status, 401, `${kind}: ${describe(call)}`);
            assert.deepEqual(answer.body, { error: "Invalid auth token." }, kind);
          }
        });
      },
    );
    for (const role of refusedRoles(rule.least)) {
      await t.step(`[authorization] a ${role} user cannot ${key} (403, nothing changed)`, async () => {
        const call = rule.call(w, role);
        assertPermissionRefusal(await sendUnchanged(app, call, w.tokens[role]), call);
      });
    }
  }

  // Families of calls not built yet that answer every method: behind the login check (and the /api/admin
  // guard), then 501 with their sentence; none of them changes anything.
  for (const family of NOT_YET_FAMILIES) {
    for (const path of family.paths) {
      const key = `ALL /api${path}`;
      const least = notYetLeast(path);
      const calls = ANY_METHOD.map((method) => methodCall(method, notYetPath(path)));
      await t.step(`[authorization] without a token ${key} (not built yet) answers 401`, async () => {
        for (const call of calls) {
          const answer = await sendUnchanged(app, call);
          assert.equal(answer.status, 401, describe(call));
          assert.deepEqual(answer.body, { error: "No auth token found." });
        }
      });
      await t.step(`[authorization] a broken JWT gets 401 from ${key} (not built yet)`, async () => {
        for (const [kind, token] of Object.entries(broken)) {
          const answer = await sendUnchanged(app, calls[1], token);
          assert.equal(answer.status, 401, kind);
          assert.deepEqual(answer.body, { error: "Invalid auth token." }, kind);
        }
      });
      for (const role of refusedRoles(least)) {
        await t.step(`[authorization] a ${role} user cannot reach ${key} (403 before the 501)`, async () => {
          for (const call of calls) {
            assertPermissionRefusal(await sendUnchanged(app, call, w.tokens[role]), call);
          }
        });
      }
      for (const role of allowedRoles(least)) {
        await t.step(`[authorization] a ${role} user gets 501 and its sentence from ${key}`, async () => {
          for (const call of calls) {
            const answer = await sendUnchanged(app, call, w.tokens[role]);
            assert.equal(answer.status, 501, describe(call));
            assert.deepEqual(answer.body, notYetBody(family), describe(call));
          }
        });
      }
    }
  }
  await t.step(
    "[authorization] every not-yet call of the route table answers 501 with its family's sentence",
    async () => {
      for (const family of MISSING_CALLS) {
        if (family.methods === "ALL") continue;
        for (const path of family.paths) {
          for (const method of family.methods) {
            const call = methodCall(method, notYetPath(path));
            const answer = await sendUnchanged(app, call, w.tokens.admin);
            assert.equal(answer.status, 501, describe(call));
            assert.deepEqual(answer.body, notYetBody(family), describe(call));
          }
        }
      }
    },
  );
  // The developer API's docs are read before signing in: answered before the login check, the same to everyone,
  // whatever token is sent (nothing about the caller or the instance in it).
  await t.step(
    "[authorization] GET /api/docs and its files answer 200 before the login check, whatever token is sent",
    async () => {
      const tokens: [string, string | undefined][] = [
        ["no token", undefined],
        ...Object.entries(broken),
        ["a default user", w.tokens.default],
        ["an admin", w.tokens.admin],
      ];
      for (const path of DEVELOPER_API_DOCS) {
        const bodies = new Set<string>();
        for (const [kind, token] of tokens) {
          const answer = await sendUnchanged(app, { method: "GET", path }, token);
          assert.equal(answer.status, 200, `${kind}: GET ${path}`);
          bodies.add(answer.text);
        }
        assert.equal(bodies.size, 1, `GET ${path}: the same answer to everyone`);
      }
    },
  );

  // Then the callers who may: they pass the guard (their calls may change things, so they come last).
  for (const [key, rule] of entries) {
    const callers: Caller[] = rule.least === "public" ? ["anonymous"] : allowedRoles(rule.least);
    for (const caller of callers) {
      const expected = typeof rule.status === "number" ? rule.status : rule.status[caller]!;
      const title = caller === "anonymous"
        ? `[authorization] ${key} is public: it answers ${expected} without a login`
        : `[authorization] a ${caller} user passes the guard of ${key} (${expected})`;
      await t.step(title, async () => {
        const call = (rule.pass ?? rule.call)(w, caller);
        const answer = await send(app, call, caller === "anonymous" ? undefined : w.tokens[caller]);
        assertPassed(answer, call, expected);
      });
    }
  }
});

Deno.test("authorization: other users' workspaces, threads, chats, pictures, presets and accounts", async (t) => {
  await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1" } });
  const w = await buildWorld(app);
  const dora = w.tokens.default;
  const vault = `/api/workspace/${w.vault.slug}`;
  const team = `/api/workspace/${w.team.slug}`;
  const eveThread = `${team}/thread/${w.threads.eve}`;
  const chatRow = async (id: number) =>
    (await app.deps.db.select().from(workspaceChats).where(eq(workspaceChats.id, id)))[0];
  const threadRow = async (slug: string) =>
    (await app.deps.db.select().from(workspaceThreads).where(eq(workspaceThreads.slug, slug)))[0];
  const userRow = async (id: number) => (await app.deps.db.select().from(users).where(eq(users.id, id)))[0];
  /** No answer to someone else carries Eve's or the admin's chat text. */
  const assertNoLeak = (answer: Answer, ...secrets: string[]) => {
    for (const secret of [...secrets, "SECRET-EVE", "SECRET-ADMIN"]) {
      assert.ok(!answer.text.includes(secret), `the answer leaks ${secret}: ${answer.text.slice(0, 300)}`);
    }
  };
  const notInWorkspace = { success: false, error: "Workspace does not exist." };
  const noThread = { success: false, error: "Workspace thread does not exist." };

  // --- a workspace Dora is not a member of ---
  await t.step(
    "[authorization] the workspace list of a default user leaves out a workspace she is not in",
    async () => {
      const answer = await send(app, { method: "GET", path: "/api/workspaces" }, dora);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.workspaces.map((row: { slug: string }) => row.slug), [w.team.slug]);
    },
  );
  await t.step(
    "[authorization] a non-member cannot read a workspace (404, {workspace:null} and the sentence)",
    async () => {
      const answer = await sendUnchanged(app, { method: "GET", path: vault }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { workspace: null, error: "Workspace does not exist." });
    },
  );
  const vaultReads: [string, string][] = [
    ["chats", `${vault}/chats`],
    ["threads", `${vault}/threads`],
    ["suggested messages", `${vault}/suggested-messages`],
    ["picture", `${vault}/pfp`],
    ["speech of a chat", `${vault}/tts/${w.vaultChat}`],
    ["agent command flag", `${vault}/is-agent-command-available`],
    ["thread chats", `${vault}/thread/${w.vaultThread}/chats`],
  ];
  for (const [what, path] of vaultReads) {
    await t.step(
      `[authorization] a non-member cannot read the ${what} of a workspace (404, nothing leaks)`,
      async () => {
        const answer = await sendUnchanged(app, { method: "GET", path }, dora);
        assert.equal(answer.status, 404, path);
        assert.deepEqual(answer.body, notInWorkspace);
        assertNoLeak(answer);
      },
    );
  }
  await t.step(
    "[authorization] a non-member cannot chat in a workspace (404 abort, no chat saved)",
    async () => {
      const answer = await sendUnchanged(app, {
        method: "POST",
        path: `${vault}/stream-chat`,
        json: { message: "hi" },
      }, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.type, "abort");
      assert.equal(answer.body.error, "Workspace does not exist.");
    },
  );
  await t.step(
    "[authorization] a non-member cannot chat in a thread of a workspace (404 abort, no chat saved)",
    async () => {
      const call = {
        method: "POST",
        path: `${vault}/thread/${w.vaultThread}/stream-chat`,
        json: { message: "hi" },
      };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error, "Workspace does not exist.");
    },
  );
  await t.step(
    "[authorization] a non-member cannot open a thread in a workspace (404, no thread)",
    async () => {
      const answer = await sendUnchanged(app, { method: "POST", path: `${vault}/thread/new` }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { thread: null, error: "Workspace does not exist." });
    },
  );
  const vaultWrites: [string, Call][] = [
    ["edit a chat", {
      method: "POST",
      path: `${vault}/update-chat`,
      json: { chatId: w.vaultChat, newText: "x" },
    }],
    ["rate a chat", {
      method: "POST",
      path: `${vault}/chat-feedback/${w.vaultChat}`,
      json: { feedback: false },
    }],
    ["delete chats from an id on", {
      method: "DELETE",
      path: `${vault}/delete-edited-chats`,
      json: { startingId: 1 },
    }],
    ["delete chats", { method: "DELETE", path: `${vault}/delete-chats`, json: { chatIds: [w.vaultChat] } }],
    ["fork a chat", { method: "POST", path: `${vault}/thread/fork`, json: { chatId: w.vaultChat } }],
    ["rename a thread", {
      method: "POST",
      path: `${vault}/thread/${w.vaultThread}/update`,
      json: { name: "Mine now" },
    }],
    ["delete a thread", { method: "DELETE", path: `${vault}/thread/${w.vaultThread}` }],
    ["bulk-delete threads", {
      method: "DELETE",
      path: `${vault}/thread-bulk-delete`,
      json: { slugs: [w.vaultThread] },
    }],
  ];
  for (const [what, call] of vaultWrites) {
    await t.step(
      `[authorization] a non-member cannot ${what} in a workspace (404, nothing changed)`,
      async () => {
        const answer = await sendUnchanged(app, call, dora);
        assert.equal(answer.status, 404, describe(call));
        assert.equal(answer.body.error ?? answer.body.message, "Workspace does not exist.");
      },
    );
  }
  await t.step(
    "[authorization] a non-member cannot hide another user's chat by its id (404, still visible)",
    async () => {
      const answer = await sendUnchanged(app, {
        method: "PUT",
        path: `/api/workspace/workspace-chats/${w.vaultChat}`,
      }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { success: false, error: "Chat not found." });
      assert.equal((await chatRow(w.vaultChat)).include, true);
    },
  );
  await t.step(
    "[authorization] a default user cannot upload into a workspace she is not in (404, no document)",
    async () => {
      const form = () => {
        const data = new FormData();
        data.append("file", new File(["Planted text."], "planted.txt"));
        return data;
      };
      for (const path of [`${vault}/upload`, `${vault}/upload-and-embed`]) {
        const call = { method: "POST", path, form };
        assertHiddenWorkspace(await sendUnchanged(app, call, dora), call);
      }
    },
  );
  await t.step(
    "[authorization] a default user cannot add herself to a workspace's members (403)",
    async () => {
      const call = {
        method: "POST",
        path: `/api/admin/workspaces/${w.vault.id}/update-users`,
        json: { userIds: [w.ids.default, w.ids.eve, w.ids.admin] },
      };
      assertPermissionRefusal(await sendUnchanged(app, call, dora), call);
    },
  );
  await t.step("[authorization] a default user cannot count a workspace's vectors (403)", async () => {
    const call = { method: "GET", path: `/api/system/system-vectors?slug=${w.vault.slug}` };
    assertPermissionRefusal(await sendUnchanged(app, call, dora), call);
  });

  // --- another user's thread and chats in a workspace both are members of ---
  await t.step("[authorization] the thread list shows only the caller's own threads", async () => {
    const answer = await send(app, { method: "GET", path: `${team}/threads` }, dora);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.threads.map((thread: { slug: string }) => thread.slug), [w.threads.default]);
    assert.equal(answer.body.defaultThreadChatCount, 1, "only her own default-thread chat counts");
  });
  await t.step(
    "[authorization] a member cannot read another member's thread (404, nothing leaks)",
    async () => {
      const answer = await sendUnchanged(app, { method: "GET", path: `${eveThread}/chats` }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, noThread);
      assertNoLeak(answer);
    },
  );
  await t.step(
    "[authorization] a member cannot rename another member's thread (404, name kept)",
    async () => {
      const answer = await sendUnchanged(app, {
        method: "POST",
        path: `${eveThread}/update`,
        json: { name: "Hijacked" },
      }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { thread: null, message: "Workspace thread does not exist." });
      assert.equal((await threadRow(w.threads.eve)).name, "Thread of eve");
    },
  );
  await t.step(
    "[authorization] a member cannot delete another member's thread (404, thread kept)",
    async () => {
      const answer = await sendUnchanged(app, { method: "DELETE", path: eveThread }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, noThread);
    },
  );
  await t.step(
    "[authorization] bulk delete skips another member's thread (deleted 0, thread kept)",
    async () => {
      const call = { method: "DELETE", path: `${team}/thread-bulk-delete`, json: { slugs: [w.threads.eve] } };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.deleted, 0);
      assert.ok(await threadRow(w.threads.eve));
    },
  );
  await t.step(
    "[authorization] a member cannot fork another member's thread (404, no new thread)",
    async () => {
      const call = {
        method: "POST",
        path: `${team}/thread/fork`,
        json: { threadSlug: w.threads.eve, chatId: w.threadChats.eve },
      };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error, "Workspace thread does not exist.");
    },
  );
  await t.step(
    "[authorization] a member cannot fork from another member's default-thread chat (404)",
    async () => {
      const call = { method: "POST", path: `${team}/thread/fork`, json: { chatId: w.chats.eve } };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error, "Chat not found.");
      assertNoLeak(answer);
    },
  );
  await t.step(
    "[authorization] a member cannot chat into another member's thread (404 abort, no chat saved)",
    async () => {
      const answer = await sendUnchanged(app, {
        method: "POST",
        path: `${eveThread}/stream-chat`,
        json: { message: "Write into Eve's thread" },
      }, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.type, "abort");
      assert.equal(answer.body.error, "Workspace thread does not exist.");
    },
  );
  await t.step("[authorization] a member's chat history holds only her own chats", async () => {
    const answer = await send(app, { method: "GET", path: `${team}/chats` }, dora);
    assert.equal(answer.status, 200);
    assert.ok(answer.text.includes(secretOf("default", "TEAM")), "her own chat is there");
    assertNoLeak(answer, secretOf("manager", "TEAM"));
  });
  await t.step("[authorization] a member cannot edit another member's chat (404, text kept)", async () => {
    const call = {
      method: "POST",
      path: `${team}/update-chat`,
      json: { chatId: w.chats.eve, newText: "Rewritten by Dora", role: "user" },
    };
    const answer = await sendUnchanged(app, call, dora);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error, "Chat not found.");
    assert.equal((await chatRow(w.chats.eve)).prompt, `${secretOf("eve", "TEAM")} question`);
  });
  await t.step(
    "[authorization] a member cannot edit another member's chat through her own thread (404)",
    async () => {
      const call = {
        method: "POST",
        path: `${team}/thread/${w.threads.default}/update-chat`,
        json: { chatId: w.threadChats.eve, newText: "Rewritten", role: "assistant" },
      };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error, "Chat not found.");
    },
  );
  await t.step("[authorization] a member cannot edit chats of another member's thread (404)", async () => {
    const call = {
      method: "POST",
      path: `${eveThread}/update-chat`,
      json: { chatId: w.threadChats.eve, newText: "Rewritten", role: "assistant" },
    };
    const answer = await sendUnchanged(app, call, dora);
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, noThread);
  });
  await t.step(
    "[authorization] a member cannot rate another member's chat (404 {success:false})",
    async () => {
      const call = {
        method: "POST",
        path: `${team}/chat-feedback/${w.chats.eve}`,
        json: { feedback: false },
      };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.success, false);
      assert.equal((await chatRow(w.chats.eve)).feedbackScore, null);
    },
  );
  await t.step("[authorization] delete-edited-chats removes none of another member's chats", async () => {
    // Eve's chats are the newest, so from her chat on there is nothing of Dora's: only Eve's chat could go.
    const call = { method: "DELETE", path: `${team}/delete-edited-chats`, json: { startingId: w.chats.eve } };
    const answer = await sendUnchanged(app, call, dora);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.deleted, 0);
  });
  await t.step("[authorization] a member cannot delete from another member's thread (404)", async () => {
    const call = { method: "DELETE", path: `${eveThread}/delete-edited-chats`, json: { startingId: 1 } };
    const answer = await sendUnchanged(app, call, dora);
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, noThread);
  });
  await t.step("[authorization] delete-chats with another member's chat ids deletes nothing", async () => {
    const call = {
      method: "DELETE",
      path: `${team}/delete-chats`,
      json: { chatIds: [w.chats.eve, w.threadChats.eve, w.chats.admin] },
    };
    const answer = await sendUnchanged(app, call, dora);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.deleted, 0);
  });
  await t.step(
    "[authorization] a member cannot hide another member's chat (PUT workspace-chats/:id, 404)",
    async () => {
      const answer = await sendUnchanged(app, {
        method: "PUT",
        path: `/api/workspace/workspace-chats/${w.chats.eve}`,
      }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { success: false, error: "Chat not found." });
      assert.equal((await chatRow(w.chats.eve)).include, true);
    },
  );
  await t.step("[authorization] speech of another member's chat is not found (404)", async () => {
    const answer = await sendUnchanged(app, { method: "GET", path: `${team}/tts/${w.chats.eve}` }, dora);
    assert.equal(answer.status, 404);
    assert.ok(!answer.text.includes("audio"));
  });
  await t.step(
    "[authorization] an admin cannot read another user's thread either (threads are personal)",
    async () => {
      const answer = await sendUnchanged(app, { method: "GET", path: `${eveThread}/chats` }, w.tokens.admin);
      assert.equal(answer.status, 404);
      assertNoLeak(answer);
    },
  );
  await t.step("[authorization] a manager cannot rename another user's thread (404)", async () => {
    const answer = await sendUnchanged(app, {
      method: "POST",
      path: `${eveThread}/update`,
      json: { name: "Managed" },
    }, w.tokens.manager);
    assert.equal(answer.status, 404);
  });
  await t.step(
    "[authorization] an admin's chat history of a workspace holds no one else's chats",
    async () => {
      const answer = await send(app, { method: "GET", path: `${team}/chats` }, w.tokens.admin);
      assert.equal(answer.status, 200);
      assert.ok(answer.text.includes(secretOf("admin", "TEAM")));
      for (const person of ["eve", "default", "manager"] as Person[]) {
        assert.ok(!answer.text.includes(secretOf(person, "TEAM")), person);
      }
    },
  );

  // --- profile pictures, suggested messages, presets ---
  const eveUpload = new FormData();
  eveUpload.append("file", new File([PNG], "eve.png"));
  assert.equal(
    (await send(app, { method: "POST", path: "/api/system/upload-pfp", form: () => eveUpload }, w.tokens.eve))
      .status,
    200,
  );
  await t.step(
    "[authorization] another user's profile picture is 204 with no bytes, for a default user and an admin",
    async () => {
      for (const token of [dora, w.tokens.admin]) {
        const answer = await send(app, { method: "GET", path: `/api/system/pfp/${w.ids.eve}` }, token);
        assert.equal(answer.status, 204);
        assert.equal(answer.text, "");
      }
      const hers = await app.request(`/api/system/pfp/${w.ids.eve}`, bearer(w.tokens.eve));
      assert.equal(hers.status, 200, "the owner does get it: the 204 is the rule, not a missing file");
      assert.deepEqual(new Uint8Array(await hers.arrayBuffer()), PNG);
    },
  );
  await t.step("[authorization] removing one's picture leaves another user's picture alone", async () => {
    const answer = await send(app, {
      method: "DELETE",
      path: "/api/system/remove-pfp",
      json: { id: w.ids.eve },
    }, dora);
    assert.equal(answer.status, 200);
    assert.ok((await userRow(w.ids.eve)).pfpFilename);
  });
  await t.step(
    "[authorization] a non-member cannot read a workspace's suggested messages (nothing leaks)",
    async () => {
      const answer = await send(app, { method: "GET", path: `${vault}/suggested-messages` }, dora);
      assert.equal(answer.status, 404);
      assertNoLeak(answer, secretOf("admin", "SUGGESTION"));
    },
  );
  await t.step("[authorization] a member cannot replace a workspace's suggested messages (403)", async () => {
    const call = {
      method: "POST",
      path: `${team}/suggested-messages`,
      json: { messages: [{ heading: "a", message: "b" }] },
    };
    assertPermissionRefusal(await sendUnchanged(app, call, dora), call);
    const rows = await app.deps.db.select().from(workspaceSuggestedMessages);
    assert.equal(rows.length, 1);
  });
  await t.step("[authorization] the preset list holds only the caller's own presets", async () => {
    const answer = await send(app, { method: "GET", path: "/api/system/slash-command-presets" }, dora);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.presets.map((preset: { id: number }) => preset.id), [w.presets.default]);
    assertNoLeak(answer);
  });
  for (const [who, token] of [["default", dora], ["admin", w.tokens.admin]] as const) {
    await t.step(
      `[authorization] a ${who} user cannot update another user's preset by id (404, kept)`,
      async () => {
        const call = {
          method: "POST",
          path: `/api/system/slash-command-presets/${w.presets.eve}`,
          json: { command: "/stolen", prompt: "Replaced" },
        };
        const answer = await sendUnchanged(app, call, token);
        assert.equal(answer.status, 404);
        const missing = "Cannot find that slash command preset.";
        assert.deepEqual(answer.body, { success: false, error: missing, message: missing });
        assertNoLeak(answer);
      },
    );
    await t.step(
      `[authorization] a ${who} user cannot delete another user's preset by id (404, kept)`,
      async () => {
        const call = { method: "DELETE", path: `/api/system/slash-command-presets/${w.presets.eve}` };
        const answer = await sendUnchanged(app, call, token);
        assert.equal(answer.status, 404);
        const [row] = await app.deps.db.select().from(slashCommandPresets).where(
          eq(slashCommandPresets.id, w.presets.eve),
        );
        assert.ok(row);
      },
    );
  }

  // --- files attached to the chat (parsed files): each user's own, in workspaces they see ---
  const parsedRow = async (id: number) =>
    (await app.deps.db.select().from(workspaceParsedFiles).where(eq(workspaceParsedFiles.id, id)))[0];
  const fileIds = (answer: Answer) => answer.body.files.map((file: { id: number }) => file.id);
  const attachForm = (threadSlug?: string) => () => {
    const form = new FormData();
    form.append("file", new File(["Planted text."], "planted.txt"));
    if (threadSlug) form.append("threadSlug", threadSlug);
    return form;
  };
  for (const who of ["default", "admin"] as const) {
    await t.step(`[authorization] a ${who} user's list of attached files holds only their own`, async () => {
      const answer = await send(app, { method: "GET", path: `${team}/parsed-files` }, w.tokens[who]);
      assert.equal(answer.status, 200);
      assert.deepEqual(fileIds(answer), [w.parsedFiles[who]]);
      assert.ok(answer.text.includes(secretOf(who, "ATTACHED")), "their own file is listed by its title");
      for (const person of PEOPLE.filter((person) => person !== who)) {
        assert.ok(!answer.text.includes(secretOf(person, "ATTACHED")), `${person}'s file leaks`);
      }
      assert.ok(!answer.text.includes(secretOf("eve", "ATTACHED-THREAD")));
    });
  }
  await t.step(
    "[authorization] a member cannot list the files attached in another member's thread (404, nothing leaks)",
    async () => {
      const call = { method: "GET", path: `${team}/parsed-files?threadSlug=${w.threads.eve}` };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error, "Workspace thread does not exist.");
      assert.deepEqual(answer.body.files, []);
      assertNoLeak(answer);
    },
  );
  await t.step(
    "[authorization] a non-member cannot list a workspace's attached files (404, nothing leaks)",
    async () => {
      const answer = await sendUnchanged(app, { method: "GET", path: `${vault}/parsed-files` }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, {
        success: false,
        error: "Workspace does not exist.",
        files: [],
        contextWindow: null,
        currentContextTokenCount: 0,
      });
      assertNoLeak(answer);
    },
  );
  await t.step(
    "[authorization] a member cannot attach a file to another member's thread (404, nothing stored)",
    async () => {
      const call = { method: "POST", path: `${team}/parse`, form: attachForm(w.threads.eve) };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { success: false, error: "Workspace thread does not exist." });
    },
  );
  await t.step(
    "[authorization] a non-member cannot attach a file in a workspace (404, nothing stored)",
    async () => {
      for (const form of [attachForm(), attachForm(w.vaultThread)]) {
        const answer = await sendUnchanged(app, { method: "POST", path: `${vault}/parse`, form }, dora);
        assert.equal(answer.status, 404);
        assert.deepEqual(answer.body, { success: false, error: "Workspace does not exist." });
      }
    },
  );
  await t.step(
    "[authorization] a member cannot remove other users' attached files (404, files kept)",
    async () => {
      const call = {
        method: "DELETE",
        path: `${team}/delete-parsed-files`,
        json: { fileIds: [w.parsedFiles.eve, w.eveThreadFile, w.parsedFiles.admin, w.vaultFile] },
      };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error, "None of these parsed files is yours in this workspace.");
    },
  );
  await t.step(
    "[authorization] a non-member cannot remove a workspace's attached files (404, kept)",
    async () => {
      const call = {
        method: "DELETE",
        path: `${vault}/delete-parsed-files`,
        json: { fileIds: [w.vaultFile] },
      };
      const answer = await sendUnchanged(app, call, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { success: false, error: "Workspace does not exist." });
    },
  );
  for (const who of ["manager", "admin"] as const) {
    await t.step(
      `[authorization] a ${who} cannot embed another user's attached file (404, file kept, no document)`,
      async () => {
        for (const id of [w.parsedFiles.eve, w.eveThreadFile]) {
          const call = { method: "POST", path: `${team}/embed-parsed-file/${id}` };
          const answer = await sendUnchanged(app, call, w.tokens[who]);
          assert.equal(answer.status, 404, describe(call));
          assert.deepEqual(answer.body, { success: false, error: "File not found", document: null });
        }
        const call = { method: "POST", path: `${vault}/embed-parsed-file/${w.vaultFile}` };
        const answer = await sendUnchanged(app, call, w.tokens[who]);
        assert.equal(answer.status, 404, "Eve's vault file, through the vault an admin or manager sees");
      },
    );
  }
  await t.step(
    "[authorization] removing her own and another member's files together removes only her own",
    async () => {
      const answer = await send(app, {
        method: "DELETE",
        path: `${team}/delete-parsed-files`,
        json: { fileIds: [w.parsedFiles.default, w.parsedFiles.eve] },
      }, dora);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { success: true, error: null, removed: 1 });
      assert.equal(await parsedRow(w.parsedFiles.default), undefined);
      assert.ok(await parsedRow(w.parsedFiles.eve), "Eve's file is kept");
    },
  );

  // --- search: workspaces the caller sees, and only the caller's own threads ---
  const search = async (searchTerm: string, token: string) => {
    const answer = await send(
      app,
      { method: "POST", path: "/api/workspace/search", json: { searchTerm } },
      token,
    );
    assert.equal(answer.status, 200, answer.text);
    return answer;
  };
  const slugs = (rows: { slug: string }[]) => rows.map((row) => row.slug).sort();
  await t.step("[authorization] a default user's search finds only her own threads", async () => {
    const answer = await search("thread of", dora);
    assert.deepEqual(slugs(answer.body.threads), [w.threads.default]);
    for (const name of ["eve", "admin", "manager", "vault"]) {
      assert.deepEqual((await search(name, dora)).body.threads, [], `searching "${name}"`);
    }
  });
  await t.step(
    "[authorization] search leaves out a workspace the caller is not in, and its threads",
    async () => {
      const answer = await search("Vault", dora);
      assert.deepEqual(answer.body, { workspaces: [], threads: [] });
      const own = await search("Team", dora);
      assert.deepEqual(slugs(own.body.workspaces), [w.team.slug], "her own workspace is found");
    },
  );
  await t.step(
    "[authorization] an admin's search finds every workspace but only their own threads",
    async () => {
      const vaultAnswer = await search("Vault", w.tokens.admin);
      assert.deepEqual(slugs(vaultAnswer.body.workspaces), [w.vault.slug]);
      assert.deepEqual(vaultAnswer.body.threads, [], "Eve's vault thread stays hers");
      assert.deepEqual(slugs((await search("thread of", w.tokens.admin)).body.threads), [w.threads.admin]);
    },
  );

  // --- prompt history: the members of the workspace ---
  await t.step(
    "[authorization] a non-member cannot read a workspace's prompt history (404, nothing leaks)",
    async () => {
      const answer = await sendUnchanged(app, { method: "GET", path: `${vault}/prompt-history` }, dora);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, { history: [], error: "Workspace does not exist." });
      assertNoLeak(answer, secretOf("admin", "VAULT-HISTORY"));
    },
  );
  await t.step("[authorization] a member reads only her workspace's prompt history", async () => {
    const answer = await send(app, { method: "GET", path: `${team}/prompt-history` }, dora);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.history.map((entry: { id: number }) => entry.id), [w.teamHistory]);
    assertNoLeak(answer, secretOf("admin", "VAULT-HISTORY"));
  });
  await t.step(
    "[authorization] a default user cannot clear or delete a prompt history entry: 403 in her workspace (a viewer), 404 in another",
    async () => {
      const hidden = { method: "DELETE", path: `${vault}/prompt-history` };
      assertHiddenWorkspace(await sendUnchanged(app, hidden, dora), hidden);
      const other = { method: "DELETE", path: `/api/workspace/prompt-history/${w.vaultHistory}` };
      assertHiddenWorkspace(
        await sendUnchanged(app, other, dora),
        other,
        "That prompt history entry does not exist.",
      );
      const own = { method: "DELETE", path: `/api/workspace/prompt-history/${w.teamHistory}` };
      assertPermissionRefusal(await sendUnchanged(app, own, dora), own);
    },
  );

  // --- prompt variables: shared, but the built-in user ones are the caller's own ---
  await t.step(
    "[authorization] the prompt variables carry the caller's own name, no one else's",
    async () => {
      const answer = await send(app, { method: "GET", path: "/api/system/prompt-variables" }, dora);
      assert.equal(answer.status, 200);
      const value = (key: string) =>
        answer.body.variables.find((variable: { key: string }) => variable.key === key)?.value;
      assert.equal(value("user.name"), w.sessions.default.user.username);
      assert.equal(value("user.id"), String(w.ids.default));
      assert.equal(value("harbour_name"), "Port Lectern", "the admin's stored variable is shared");
      assert.ok(!answer.text.includes(`"${w.sessions.eve.user.username}"`), "Eve's name is not in it");
    },
  );

  // --- live sync queues ---
  for (
    const call of [
      { method: "GET", path: "/api/experimental/live-sync/queues" },
      { method: "POST", path: `/api/experimental/live-sync/queues/${w.queueId}/sync-now` },
      { method: "DELETE", path: `/api/experimental/live-sync/queues/${w.queueId}` },
    ]
  ) {
    await t.step(
      `[authorization] a default user cannot touch a live-sync queue: ${describe(call)} (403)`,
      async () => {
        const answer = await sendUnchanged(app, call, dora);
        assertPermissionRefusal(answer, call);
        assert.ok(!answer.text.includes("127.0.0.1:9"), "the watched link does not leak");
      },
    );
  }

  // --- accounts: managers never touch admins, nobody raises their own role ---
  const root = w.ids.admin;
  const managerOnAdmin: [string, Call, string][] = [
    [
      "suspend",
      { method: "POST", path: `/api/admin/user/${root}`, json: { suspended: true } },
      "Cannot perform that action on user.",
    ],
    [
      "demote",
      { method: "POST", path: `/api/admin/user/${root}`, json: { role: "default" } },
      "Cannot perform that action on user.",
    ],
    [
      "rename",
      { method: "POST", path: `/api/admin/user/${root}`, json: { username: "taken-over" } },
      "Cannot perform that action on user.",
    ],
    ["reset the password of", {
      method: "POST",
      path: `/api/admin/user/${root}`,
      json: { password: "new-password-9" },
    }, "Cannot perform that action on user."],
    ["delete", { method: "DELETE", path: `/api/admin/user/${root}` }, "Cannot perform that action on user."],
    [
      "issue a login link for",
      { method: "POST", path: `/api/admin/user/${root}/issue-auth-token` },
      PERMISSION_REFUSAL,
    ],
  ];
  for (const [what, call, message] of managerOnAdmin) {
    await t.step(`[authorization] a manager cannot ${what} an admin (403, admin untouched)`, async () => {
      const answer = await sendUnchanged(app, call, w.tokens.manager);
      assert.equal(answer.status, 403, describe(call));
      assert.equal(answer.body.error ?? answer.body.message, message);
    });
  }
  await t.step("[authorization] a manager cannot make a default user an admin (403)", async () => {
    const call = { method: "POST", path: `/api/admin/user/${w.ids.default}`, json: { role: "admin" } };
    const answer = await sendUnchanged(app, call, w.tokens.manager);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error, "Invalid role selection for user.");
  });
  await t.step("[authorization] a manager cannot make themself an admin (403)", async () => {
    const call = { method: "POST", path: `/api/admin/user/${w.ids.manager}`, json: { role: "admin" } };
    const answer = await sendUnchanged(app, call, w.tokens.manager);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error, "Invalid role selection for user.");
  });
  await t.step("[authorization] a manager cannot reset a default user's password (403)", async () => {
    const call = {
      method: "POST",
      path: `/api/admin/user/${w.ids.default}`,
      json: { password: "dora-new-password" },
    };
    const answer = await sendUnchanged(app, call, w.tokens.manager);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error, "Only an admin can reset passwords.");
  });
  await t.step("[authorization] a manager cannot create an account, admin or not (403)", async () => {
    for (const role of ["admin", "default"]) {
      const call = {
        method: "POST",
        path: "/api/admin/users/new",
        json: { username: `by-manager-${role}`, password: "some-password", role },
      };
      const answer = await sendUnchanged(app, call, w.tokens.manager);
      assert.equal(answer.status, 403);
      assert.deepEqual(answer.body, { user: null, error: PERMISSION_REFUSAL });
    }
  });
  await t.step(
    "[authorization] a manager cannot read pending invite codes (403, no code in the answer)",
    async () => {
      const answer = await sendUnchanged(
        app,
        { method: "GET", path: "/api/admin/invites" },
        w.tokens.manager,
      );
      assert.equal(answer.status, 403);
      assert.ok(!answer.text.includes(w.invite.code));
    },
  );
  await t.step(
    "[authorization] a user cannot raise their own role or limits through POST /api/system/user",
    async () => {
      await app.deps.db.update(users).set({ dailyMessageLimit: 5 }).where(eq(users.id, w.ids.default));
      const answer = await send(app, {
        method: "POST",
        path: "/api/system/user",
        json: {
          bio: "Just me",
          role: "admin",
          suspended: 0,
          dailyMessageLimit: null,
          id: w.ids.eve,
          userId: w.ids.eve,
        },
      }, dora);
      assert.equal(answer.status, 200);
      const mine = await userRow(w.ids.default);
      assert.equal(mine.role, "default");
      assert.equal(mine.dailyMessageLimit, 5);
      assert.equal(mine.bio, "Just me");
      assert.equal((await userRow(w.ids.eve)).bio, "", "Eve is untouched");
      const after = await send(app, {
        method: "POST",
        path: "/api/admin/users/new",
        json: { username: "sneaky", password: "sneaky-password" },
      }, dora);
      assert.equal(after.status, 403, "and the same token still has default rights");
    },
  );
  await t.step(
    "[authorization] a role change alone is refused for one's own account (no updates)",
    async () => {
      const answer = await sendUnchanged(app, {
        method: "POST",
        path: "/api/system/user",
        json: { role: "admin" },
      }, dora);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error, "No updates provided");
    },
  );
  await t.step(
    "[authorization] setup-complete gives a default user only what the login screen gets",
    async () => {
      const anonymous = await send(app, { method: "GET", path: "/api/setup-complete" });
      const asDora = await send(app, { method: "GET", path: "/api/setup-complete" }, dora);
      const asAdmin = await send(app, { method: "GET", path: "/api/setup-complete" }, w.tokens.admin);
      assert.deepEqual(asDora.body, anonymous.body);
      assert.ok("LockedSettings" in asAdmin.body.results, "an admin gets the full answer");
      assert.ok(!("LockedSettings" in asDora.body.results));
    },
  );

  // --- tokens whose user changed since they were signed ---
  await t.step("[authorization] a token signed before a role change is refused (401)", async () => {
    const stale = await signSession(app.deps.keys.jwt, { sub: String(w.ids.manager), ver: -1 });
    const answer = await sendUnchanged(app, { method: "GET", path: "/api/admin/users" }, stale);
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, { error: "Invalid auth for user." });
  });
  await t.step("[authorization] a suspended user's token is refused on every call (401)", async () => {
    const changed = await send(app, {
      method: "POST",
      path: `/api/admin/user/${w.ids.eve}`,
      json: { suspended: true },
    }, w.tokens.admin);
    assert.equal(changed.status, 200);
    const [row] = await app.deps.db.select().from(users).where(eq(users.id, w.ids.eve));
    const current = await signSession(app.deps.keys.jwt, { sub: String(row.id), ver: row.tokenVersion });
    const answer = await sendUnchanged(app, { method: "GET", path: `${team}/chats` }, current);
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, { error: "User is suspended from system" });
    const old = await sendUnchanged(app, { method: "GET", path: `${team}/chats` }, w.tokens.eve);
    assert.deepEqual(old.body, { error: "Invalid auth for user." }, "her earlier session is void too");
  });
  await t.step(
    "[authorization] leaving a workspace takes effect on the next call of a live session",
    async () => {
      await app.deps.db.delete(workspaceUsers).where(eq(workspaceUsers.userId, w.ids.default));
      const answer = await sendUnchanged(app, { method: "GET", path: `${team}/chats` }, dora);
      assert.equal(answer.status, 404);
      assertNoLeak(answer, secretOf("default", "TEAM"));
    },
  );
  await t.step("[authorization] a deleted user's token is refused (401)", async () => {
    const removed = await send(
      app,
      { method: "DELETE", path: `/api/admin/user/${w.ids.default}` },
      w.tokens.admin,
    );
    assert.equal(removed.status, 200);
    const answer = await sendUnchanged(app, { method: "GET", path: "/api/workspaces" }, dora);
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, { error: "Invalid auth for user." });
  });
});

Deno.test("authorization: a password-protected single-user instance", async (t) => {
  await using app = await createTestApp();
  const set = await app.json<{ token: string }>("/api/system/update-password", {
    json: { usePassword: true, newPassword: "instance-password-1" },
  });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  const token = set.body.token;
  const w = await singleUserWorld(app, token);
  const broken = await badTokens(app, token, 1);
  broken["a multi-user session (sub is a user id)"] = await signSession(app.deps.keys.jwt, {
    sub: "1",
    ver: 0,
  });
  const entries = Object.entries(ROUTES);

  for (const [key, rule] of entries) {
    if (rule.least === "public") continue;
    await t.step(`[authorization] single-user with a password: ${key} without the token is 401`, async () => {
      const call = rule.call(w, "anonymous");
      const answer = await sendUnchanged(app, call);
      assert.equal(answer.status, 401, describe(call));
      assert.deepEqual(answer.body, { error: "No auth token found." });
    });
    await t.step(
      `[authorization] single-user with a password: ${key} refuses broken tokens (401)`,
      async () => {
        const call = rule.call(w, "anonymous");
        await unchangedAcross(app, call, async () => {
          for (const [kind, bad] of Object.entries(broken)) {
            const answer = await send(app, call, bad);
            assert.equal(answer.status, 401, `${kind}: ${describe(call)}`);
            assert.deepEqual(answer.body, { error: "Token expired or failed validation." }, kind);
          }
        });
      },
    );
  }
  for (const [key, rule] of entries) {
    if (rule.least !== "public") continue;
    await t.step(
      `[authorization] single-user with a password: public ${key} answers without the token`,
      async () => {
        const call = rule.call(w, "anonymous");
        const answer = await send(app, call);
        const message = answer.body?.error ?? answer.body?.message;
        assert.ok(
          !GUARD_ANSWERS.includes(message),
          `${describe(call)}: ${answer.status} ${answer.text.slice(0, 200)}`,
        );
      },
    );
  }
  await t.step(
    "[authorization] single-user with a password: calls not built yet answer 401 without the token, 501 with it",
    async () => {
      for (const family of NOT_YET_FAMILIES) {
        for (const path of family.paths) {
          const call = methodCall("POST", notYetPath(path));
          const refused = await sendUnchanged(app, call);
          assert.equal(refused.status, 401, describe(call));
          assert.deepEqual(refused.body, { error: "No auth token found." });
          // /api/admin/* needs accounts: its guard answers first on a single-user instance.
          const expected = notYetLeast(path) === "manager" ? 403 : 501;
          assert.equal((await sendUnchanged(app, call, token)).status, expected, describe(call));
        }
      }
      for (const path of DEVELOPER_API_DOCS) {
        assert.equal((await sendUnchanged(app, { method: "GET", path })).status, 200, path);
      }
    },
  );
  await t.step(
    "[authorization] single-user: the instance token passes, and admin-only calls are open to it",
    async () => {
      assert.equal((await send(app, { method: "GET", path: "/api/workspaces" }, token)).status, 200);
      const saved = await send(app, { method: "POST", path: "/api/system/update-env", json: {} }, token);
      assert.equal(saved.status, 200);
    },
  );
  await t.step(
    "[authorization] single-user: /api/admin account calls answer 403 (no accounts here)",
    async () => {
      const answer = await sendUnchanged(app, { method: "GET", path: "/api/admin/users" }, token);
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error, "Multi-user mode is not enabled.");
    },
  );
  await t.step(
    "[authorization] single-user: a token from before the password changed is refused (401)",
    async () => {
      const changed = await send(app, {
        method: "POST",
        path: "/api/system/update-password",
        json: { usePassword: true, newPassword: "instance-password-2" },
      }, token);
      assert.equal(changed.status, 200);
      const answer = await sendUnchanged(app, { method: "GET", path: "/api/workspaces" }, token);
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, { error: "Invalid auth credentials." });
      const fresh = await send(app, { method: "GET", path: "/api/workspaces" }, changed.body.token);
      assert.equal(fresh.status, 200);
    },
  );
});

/** The objects the route table aims at, on a single-user instance (no accounts: every id is the owner's). */
async function singleUserWorld(app: TestApp, token: string): Promise<World> {
  const place = async (name: string) => {
    const created = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
      ...bearer(token),
      json: { name },
    });
    assert.equal(created.status, 200);
    return created.body.workspace;
  };
  const team = await place("Team");
  const vault = await place("Vault");
  const [thread] = await app.deps.db.insert(workspaceThreads).values({
    name: "Thread",
    slug: "thread-of-owner",
    workspaceId: team.id,
  }).returning();
  const [chat] = await app.deps.db.insert(workspaceChats).values({
    workspaceId: team.id,
    prompt: "question",
    response: JSON.stringify({ text: "answer", sources: [], type: "chat" }),
  }).returning();
  const [preset] = await app.deps.db.insert(slashCommandPresets).values({
    command: "/mine",
    prompt: "Mine",
    description: "",
    uid: 0,
  }).returning();
  const linkDoc = await seedDocument(app.deps, "Harbour notice", {
    chunkSource: "link://http://127.0.0.1:9/x",
  });
  const archiveDoc = await seedDocument(app.deps, "Old minutes", { folder: "archive" });
  const form = new FormData();
  form.append("file", new File(["The harbour opens at seven."], "attached.txt"));
  const parsed = await app.json<{ files: { id: number }[] }>(`/api/workspace/${team.slug}/parse`, {
    ...bearer(token),
    method: "POST",
    body: form,
  });
  assert.equal(parsed.status, 200, JSON.stringify(parsed.body));
  const parsedFile = parsed.body.files[0].id;
  const [variable] = await app.deps.db.insert(systemPromptVariables).values({ key: "harbour", value: "Port" })
    .returning();
  const [history] = await app.deps.db.insert(workspacePromptHistory).values({
    workspaceId: team.id,
    prompt: "Earlier prompt",
  }).returning();
  const [embed] = await app.deps.db.insert(embedConfigs).values({
    uuid: crypto.randomUUID(),
    enabled: true,
    workspaceId: team.id,
  }).returning();
  const [embedChat] = await app.deps.db.insert(embedChats).values({
    prompt: "When does the harbour open?",
    response: JSON.stringify({ text: "At seven.", sources: [], type: "query" }),
    sessionId: crypto.randomUUID(),
    embedId: embed.id,
  }).returning();
  const same = <T>(value: T) => ({ admin: value, manager: value, default: value, eve: value });
  return {
    app,
    sessions: same({ token, user: { id: 0, username: "", role: "admin" } }),
    ids: same(0),
    tokens: same(token),
    team,
    vault,
    threads: same(thread.slug),
    chats: same(chat.id),
    threadChats: same(chat.id),
    presets: same(preset.id),
    parsedFiles: same(parsedFile),
    eveThreadFile: parsedFile,
    vaultFile: parsedFile,
    promptVariable: variable.id,
    apiKey: (await makeApiKey(app, { name: "owner's scripts" }, token, "/api/system/generate-api-key")).id,
    teamHistory: history.id,
    vaultHistory: history.id,
    vaultChat: chat.id,
    vaultThread: thread.slug,
    linkDoc: linkDoc.location,
    archiveDoc: archiveDoc.location,
    queueId: 1,
    invite: { id: 1, code: "no-such-invite" },
    embed: { id: embed.id, uuid: embed.uuid },
    embedChat: embedChat.id,
  };
}
