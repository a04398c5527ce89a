import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { embedConfigs, workspaces } from "../../db/schema.ts";
import { SETTING_KEYS } from "../../shared/settings.ts";
import { User } from "../../shared/api/auth.ts";
import { createApp } from "../../server/app.ts";
import { appRoutes } from "../../server/http/lazy_routes.ts";
import { configuredTestApp, createTestApp, readFrames, type TestApp } from "../../server/testing/test_app.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { createLogger } from "../../server/log.ts";
import { newWorkspace, upload } from "./support.ts";

/** A distinct, recognisable value for every secret setting, valid for its schema. */
function secretValues(): Record<string, string> {
  const values: Record<string, string> = {};
  for (const definition of SETTING_KEYS.filter((entry) => entry.secret)) {
    const marker = `${definition.key.toLowerCase()}-SECRET-${crypto.randomUUID().slice(0, 8)}`;
    values[definition.key] = definition.key === "OpenAiKey" || definition.key === "TTSOpenAIKey"
      ? `sk-${marker}`
      : definition.key === "AnthropicApiKey"
      ? `sk-ant-${marker}`
      : marker;
  }
  return values;
}

/** Values for the `:name` parameters of the app's routes; a route with another parameter fails the walk. */
interface Fixtures {
  slug: string;
  threadSlug: string;
  id: string;
  chatId: string;
  code: string;
  step: string;
  tab: string;
  /** The developer API's document folder and file name (`/api/v1/documents/folder/:folderName`, …). */
  folderName: string;
  docName: string;
  /** An embed widget's uuid and a visitor session of it (`/api/embed/:embedId/:sessionId`). */
  embedId: string;
  sessionId: string;
  /** An agent invocation (`/api/agent-invocation/:uuid`: unknown here, so refused). */
  uuid: string;
}

/** An embed widget of the workspace, for the widget's history call. */
async function embedOf(app: TestApp, slug: string): Promise<string> {
  const [workspace] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
  const [embed] = await app.deps.db.insert(embedConfigs).values({
    uuid: crypto.randomUUID(),
    enabled: true,
    workspaceId: workspace.id,
  }).returning();
  return embed.uuid;
}

/** Every GET route the app declares, with its parameters filled in (new routes are walked automatically). */
async function getRoutes(app: TestApp, fixtures: Fixtures): Promise<string[]> {
  const paths = new Set<string>();
  for (const route of await appRoutes(createApp(app.deps))) {
    if (route.method !== "GET" || route.path.includes("*")) continue;
    const path = route.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
      const value = fixtures[name as keyof Fixtures];
      if (value === undefined) throw new Error(`The walk has no value for :${name} in ${route.path}`);
      return encodeURIComponent(value);
    });
    paths.add(path);
  }
  // Queries that change what a listing answers.
  for (
    const extra of [
      "/api/system/local-files?folder=custom-documents",
      "/api/system/local-files/search?q=secret",
      `/api/system/system-vectors?slug=${fixtures.slug}`,
      "/api/admin/system-preferences-for?labels=GenericOpenAiKey,OpenAiKey,ChromaApiKey",
      `/api/request-token/sso/simple?token=${fixtures.code}`,
      // The pages are served by a sub-app loaded on the first page request, so they are listed here.
      "/",
      "/login",
      "/onboarding",
      "/onboarding/llm-preference",
      `/workspace/${fixtures.slug}`,
      `/workspace/${fixtures.slug}/settings/general-appearance`,
      `/workspace/${fixtures.slug}/settings/chat-settings`,
      `/accept-invite/${fixtures.code}`,
      "/sso/simple",
    ]
  ) paths.add(extra);
  return [...paths].sort();
}

/**
 * The answer's text; an SSE stream is read for its first chunk only (it does not end by itself), or for
 * nothing when it stays silent a second (embed-progress waits quietly for the next embedding).
 */
async function answerText(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const reader = response.body!.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silent = new Promise<{ value: undefined }>((resolve) => {
      timer = setTimeout(() => resolve({ value: undefined }), 1000);
    });
    const { value } = await Promise.race([reader.read(), silent]);
    clearTimeout(timer);
    await reader.cancel();
    return `${headers}\n${new TextDecoder().decode(value ?? new Uint8Array())}`;
  }
  return `${headers}\n${new TextDecoder("latin1").decode(await response.arrayBuffer())}`;
}

async function keyFiles(app: TestApp): Promise<string[]> {
  return await Promise.all(
    ["jwt.key", "settings.key"].map(async (name) =>
      (await Deno.readTextFile(`${app.storageDir}/keys/${name}`)).trim()
    ),
  );
}

function assertNoSecret(text: string, secrets: string[], where: string) {
  for (const secret of secrets) {
    assert.ok(!text.includes(secret), `${where} reveals ${secret.slice(0, 24)}`);
  }
  assert.ok(!/\$argon2id\$/.test(text), `${where} reveals a password hash`);
  assert.ok(!text.includes("enc:v1:"), `${where} reveals an encrypted secret`);
}

Deno.test("security: no GET route of a multi-user instance answers a secret, to an admin or anyone", async (t) => {
  await using llm = startFakeOpenAi();
  const secrets = secretValues();
  await using app = await configuredTestApp({
    llm: llm.baseURL,
    settings: secrets,
    env: { SIMPLE_SSO_ENABLED: "1" },
  });
  const adminPassword = "Admin-Password-Secret-1234";
  const admin = await multiUserInstance(app, adminPassword);
  const bobPassword = "Bob-Password-Secret-5678";
  const bob = await addUser(app, admin, "bob", "default", bobPassword);
  const slug = await newWorkspace(app, "Secrets", admin);
  await app.json(`/api/admin/workspaces/1/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [bob.user.id] },
  });
  const uploaded = await upload(app, slug, "notes.txt", "Plain notes about tides.", { session: admin });
  await app.json(`/api/workspace/${slug}/update-embeddings`, {
    ...bearer(admin.token),
    json: { adds: [uploaded.body.documents![0].location], deletes: [] },
  });
  const thread = await app.json<{ thread: { slug: string } }>(`/api/workspace/${slug}/thread/new`, {
    ...bearer(admin.token),
    json: {},
  });
  await readFrames(
    await app.request(`/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      ...bearer(admin.token),
      body: JSON.stringify({ message: "What do the notes say?" }),
    }),
  );
  const invite = await app.json<{ invite: { code: string } }>("/api/admin/invite/new", {
    ...bearer(admin.token),
    json: { workspaceIds: [] },
  });
  const sso = await app.json<{ token: string }>(`/api/admin/user/${bob.user.id}/issue-auth-token`, {
    ...bearer(admin.token),
    method: "POST",
  });
  assert.equal(sso.status, 200);

  const secretList = [
    ...Object.values(secrets),
    adminPassword,
    bobPassword,
    ...admin.recoveryCodes!,
    ...bob.recoveryCodes!,
    sso.body.token,
    ...(await keyFiles(app)),
  ];
  const routes = await getRoutes(app, {
    slug,
    threadSlug: thread.body.thread.slug,
    id: String(admin.user.id),
    chatId: "1",
    code: invite.body.invite.code,
    step: "llm-preference",
    tab: "general-appearance",
    folderName: "custom-documents",
    docName: "notes.txt.json",
    embedId: await embedOf(app, slug),
    sessionId: crypto.randomUUID(),
    uuid: crypto.randomUUID(),
  });
  assert.ok(routes.length >= 40, `the walk covers the app's GET routes (${routes.length})`);

  await t.step("[secrets] update-env answers every saved secret masked, never the value", async () => {
    const saved = await app.json<{ newValues: Record<string, string> }>("/api/system/update-env", {
      ...bearer(admin.token),
      json: secrets,
    });
    assert.equal(saved.status, 200);
    for (const key of Object.keys(secrets)) assert.equal(saved.body.newValues[key], "*".repeat(20), key);
    assertNoSecret(JSON.stringify(saved.body), Object.values(secrets), "update-env");
  });

  for (
    const [who, session] of [["admin", admin], ["default user", bob], [
      "visitor without a session",
      null,
    ]] as const
  ) {
    await t.step(
      `[secrets] every GET route and page answers a ${who} without any secret, hash or key`,
      async () => {
        for (const path of routes) {
          const response = await app.request(path, session ? bearer((session as Session).token) : {});
          assert.notEqual(response.status, 500, `${path} failed`);
          assertNoSecret(await answerText(response), secretList, `GET ${path} (${who})`);
        }
      },
    );
  }

  await t.step("[secrets] setup-complete tells an admin only whether each secret is set", async () => {
    const setup = await app.json<{ results: Record<string, unknown> }>(
      "/api/setup-complete",
      bearer(admin.token),
    );
    for (const key of Object.keys(secrets)) assert.equal(setup.body.results[key], true, key);
  });

  await t.step("[secrets] the user list carries no password or hash", async () => {
    const list = await app.json<{ users: Record<string, unknown>[] }>(
      "/api/admin/users",
      bearer(admin.token),
    );
    assert.equal(list.status, 200);
    for (const user of list.body.users) {
      assert.deepEqual(Object.keys(user).sort(), Object.keys(User.shape).sort(), "only the presented fields");
    }
  });

  await t.step(
    "[secrets] a login answer carries the token and codes, but never the password or its hash",
    async () => {
      const answer = await app.request("/api/request-token", {
        method: "POST",
        body: JSON.stringify({ username: "bob", password: bobPassword }),
      });
      const text = await answer.text();
      assert.equal(answer.status, 200);
      assertNoSecret(text, [bobPassword, ...Object.values(secrets)], "login");
    },
  );

  await t.step("[secrets] the single-user session token holds no part of any password", () => {
    for (const token of [admin.token, bob.token]) {
      const claims = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
      assert.deepEqual(Object.keys(claims).sort(), ["exp", "iat", "sub", "ver"]);
    }
  });
});

Deno.test("security: the stored LLM key only goes to the base path it was saved with", async (t) => {
  await using saved = startFakeOpenAi();
  await using other = startFakeOpenAi();
  const key = "sk-stored-generic-key-0001";
  await using app = await configuredTestApp({ llm: saved.baseURL, settings: { GenericOpenAiKey: key } });
  const lookup = (body: Record<string, unknown>) =>
    app.json<{ models: unknown[]; error: string | null }>(
      "/api/system/custom-models",
      { json: body },
    );

  await t.step("[secrets] a lookup at the saved base path uses the stored key (the control)", async () => {
    const answer = await lookup({ provider: "generic-openai", apiKey: true });
    assert.equal(answer.status, 200);
    assert.deepEqual(saved.authorizations.at(-1), `Bearer ${key}`);
  });

  await t.step("[secrets] a lookup at another base path does not send the stored key there", async () => {
    for (const apiKey of [true, "*".repeat(20), "********", undefined, null, ""]) {
      const before = other.authorizations.length;
      const answer = await lookup({ provider: "generic-openai", basePath: other.baseURL, apiKey });
      assert.equal(answer.status, 200, JSON.stringify(apiKey));
      assert.equal(other.authorizations.length, before + 1, "the other server was asked");
      assert.equal(
        other.authorizations.at(-1),
        null,
        `no Authorization with apiKey=${JSON.stringify(apiKey)}`,
      );
    }
  });

  await t.step(
    "[secrets] another base path that only looks like the saved one gets no key either",
    async () => {
      const port = new URL(other.baseURL).port;
      for (
        const basePath of [
          `http://localhost:${port}/v1`,
          `${other.baseURL}/../v1`,
          `${other.baseURL}?x=${saved.baseURL}`,
        ]
      ) {
        const before = other.authorizations.length;
        await lookup({ provider: "generic-openai", basePath, apiKey: true });
        assert.equal(other.authorizations.length, before + 1, basePath);
        assert.equal(other.authorizations.at(-1), null, basePath);
      }
      assert.ok(!other.authorizations.some((value) => value?.includes(key)));
    },
  );

  await t.step("[secrets] a key typed into the lookup is used for it and not stored", async () => {
    await lookup({ provider: "generic-openai", basePath: other.baseURL, apiKey: "sk-typed-once" });
    assert.equal(other.authorizations.at(-1), "Bearer sk-typed-once");
    await lookup({ provider: "generic-openai", apiKey: true });
    assert.equal(saved.authorizations.at(-1), `Bearer ${key}`, "the stored key is unchanged");
  });

  await t.step("[secrets] the Ollama token is not sent to another Ollama base path", async () => {
    const saveOllama = await app.json("/api/system/update-env", {
      json: { OllamaLLMBasePath: saved.baseURL, OllamaLLMAuthToken: "ollama-token-secret-77" },
    });
    assert.equal(saveOllama.status, 200);
    const before = other.authorizations.length;
    await lookup({ provider: "ollama", basePath: other.baseURL, apiKey: true });
    assert.equal(other.authorizations.length, before + 1);
    assert.equal(other.authorizations.at(-1), null);
    await lookup({ provider: "ollama", apiKey: true });
    assert.equal(saved.authorizations.at(-1), "Bearer ollama-token-secret-77", "the control: same base path");
  });

  await t.step("[secrets] the LocalAI key is not sent to another LocalAI base path", async () => {
    await app.json("/api/system/update-env", {
      json: { LocalAiBasePath: saved.baseURL, LocalAiApiKey: "localai-key-secret-88" },
    });
    const before = other.authorizations.length;
    await lookup({ provider: "localai", basePath: other.baseURL, apiKey: true });
    assert.equal(other.authorizations.length, before + 1);
    assert.equal(other.authorizations.at(-1), null);
  });

  await t.step("[secrets] a lookup that fails does not echo the stored key in its message", async () => {
    const answer = await lookup({
      provider: "generic-openai",
      basePath: "http://127.0.0.1:9/v1",
      apiKey: true,
    });
    assert.equal(answer.status, 502);
    assert.match(String(answer.body.error), /did not answer/);
    assert.ok(!JSON.stringify(answer.body).includes(key));
  });
});

Deno.test("security: failures and logs do not echo secrets", async (t) => {
  const lines: string[] = [];
  const log = createLogger("debug", (line) => lines.push(line));
  await using llm = startFakeOpenAi({ apiKey: "sk-the-right-key" });
  await using app = await createTestApp({ log });
  const key = "sk-wrong-but-secret-key-4242";
  const saved = await app.json("/api/system/update-env", {
    json: {
      LLMProvider: "generic-openai",
      GenericOpenAiBasePath: llm.baseURL,
      GenericOpenAiModelPref: "fake-model",
      GenericOpenAiTokenLimit: "4096",
      GenericOpenAiKey: key,
      ChromaApiKey: "chroma-secret-key-4343",
    },
  });
  assert.equal(saved.status, 200);
  const slug = await newWorkspace(app, "Failing");

  await t.step("[secrets] a chat refused by the provider for a wrong key does not show the key", async () => {
    const frames = await readFrames(
      await app.request(`/api/workspace/${slug}/stream-chat`, { method: "POST", body: '{"message":"hi"}' }),
    );
    const text = JSON.stringify(frames);
    assert.match(text, /Incorrect API key provided/, "the provider's refusal is shown");
    assert.equal(llm.authorizations.at(-1), `Bearer ${key}`, "the key went to its own server");
    assert.ok(!text.includes(key));
    assert.ok(!text.includes(key.slice(3, 20)), "not even partly");
  });

  await t.step("[secrets] a refused secret value is not repeated in the validation message", async () => {
    const answer = await app.json("/api/system/update-env", {
      json: { OpenAiKey: "not-a-key-but-secret-9191", AnthropicApiKey: "also-secret-9292" },
    });
    assert.equal(answer.status, 400);
    const text = JSON.stringify(answer.body);
    assert.match(text, /OpenAI Key must start with sk-/);
    assert.ok(!text.includes("not-a-key-but-secret-9191") && !text.includes("also-secret-9292"), text);
  });

  await t.step("[secrets] the server's log (at debug level) holds no key or password", async () => {
    const password = "Logged-Password-Never-0001";
    await multiUserInstance(app, password);
    await app.json("/api/request-token", { json: { username: "admin", password: "wrong-password-0002" } });
    const joined = lines.join("\n");
    assert.ok(lines.length > 5, "the log was written");
    for (
      const secret of [
        key,
        "chroma-secret-key-4343",
        password,
        "wrong-password-0002",
        "not-a-key-but-secret-9191",
      ]
    ) {
      assert.ok(!joined.includes(secret), `the log holds ${secret}`);
    }
  });
});

Deno.test("security: an open single-user instance shows its visitor no secret either", async (t) => {
  await using llm = startFakeOpenAi();
  const secrets = secretValues();
  await using app = await configuredTestApp({ llm: llm.baseURL, settings: secrets });
  const slug = await newWorkspace(app, "Open");
  const thread = await app.json<{ thread: { slug: string } }>(`/api/workspace/${slug}/thread/new`, {
    json: {},
  });
  const routes = await getRoutes(app, {
    slug,
    threadSlug: thread.body.thread.slug,
    id: "1",
    chatId: "1",
    code: "none",
    step: "llm-preference",
    tab: "general-appearance",
    folderName: "custom-documents",
    docName: "notes.txt.json",
    embedId: await embedOf(app, slug),
    sessionId: crypto.randomUUID(),
    uuid: crypto.randomUUID(),
  });
  const secretList = [...Object.values(secrets), ...(await keyFiles(app))];

  await t.step(
    "[secrets] every GET route and page answers the open instance's visitor without any secret",
    async () => {
      for (const path of routes) {
        const response = await app.request(path);
        assert.notEqual(response.status, 500, `${path} failed`);
        assertNoSecret(await answerText(response), secretList, `GET ${path}`);
      }
    },
  );

  await t.step(
    "[secrets] a masked value sent back by a form keeps the stored secret, not the asterisks",
    async () => {
      const resent = await app.json("/api/system/update-env", { json: { GenericOpenAiKey: "*".repeat(20) } });
      assert.equal(resent.status, 200);
      assert.equal(app.deps.settings.value("GenericOpenAiKey"), secrets.GenericOpenAiKey);
    },
  );
});
