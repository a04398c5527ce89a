import assert from "node:assert/strict";
import { configuredTestApp, readFrames } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { addUser, bearer, login, multiUserInstance } from "../../server/testing/accounts.ts";
import { newWorkspace, stillAnswers, upload } from "./support.ts";

const SQL = [
  "' OR '1'='1",
  "'; DROP TABLE documents; --",
  '" OR ""="',
  "1; SELECT * FROM users",
  "') UNION SELECT password FROM users --",
];

Deno.test("security: user text is data, never SQL, LIKE patterns, headers, frames or prompt syntax", async (t) => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const slug = await newWorkspace(app, "Injection");
  for (const name of ["alpha.txt", "beta_report.txt", "100%done.txt", "back\\slash.txt", "plain.txt"]) {
    const answer = await upload(app, slug, name, `Words inside ${name}.`);
    assert.equal(answer.status, 200, name);
  }
  const search = async (q: string) => {
    const answer = await app.json<{ results: { title: string }[]; totalCount: number }>(
      `/api/system/local-files/search?q=${encodeURIComponent(q)}`,
    );
    assert.equal(answer.status, 200, `${q}: ${JSON.stringify(answer.body)}`);
    return answer.body.results.map((result) => result.title).sort();
  };

  await t.step(
    "[injection] '%' in a document search is a literal percent sign, not 'match anything'",
    async () => {
      assert.deepEqual(await search("%"), ["100%done.txt"]);
      assert.deepEqual(await search("%%"), []);
    },
  );

  await t.step(
    "[injection] '_' in a document search is a literal underscore, not 'any character'",
    async () => {
      assert.deepEqual(await search("_"), ["beta_report.txt"]);
      assert.deepEqual(await search("a_pha"), []);
    },
  );

  await t.step("[injection] a backslash (the LIKE escape) in a search is a literal backslash", async () => {
    // Unescaped, "\\" would escape the pattern's closing "%" and find "100%done.txt".
    assert.deepEqual(await search("\\"), []);
    assert.deepEqual(await search("\\%"), []);
    assert.deepEqual(await search("0%d"), ["100%done.txt"]);
  });

  await t.step("[injection] SQL in a document search finds nothing and changes nothing", async () => {
    for (const q of SQL) assert.deepEqual(await search(q), [], q);
    assert.equal((await search(".txt")).length, 5, "every document is still there");
  });

  await t.step("[injection] SQL and markup in a workspace name are stored and shown exactly", async () => {
    for (const name of [...SQL, "<script>alert(1)</script>", "Robert'); DROP TABLE workspaces;--"]) {
      const created = await app.json<{ workspace: { slug: string; name: string } }>("/api/workspace/new", {
        json: { name },
      });
      assert.equal(created.status, 200, name);
      assert.equal(created.body.workspace.name, name);
      assert.match(created.body.workspace.slug, /^[\p{L}\p{N}_-]+$/u, "a slug is one safe segment");
      const read = await app.json<{ workspace: { name: string } }>(
        `/api/workspace/${created.body.workspace.slug}`,
      );
      assert.equal(read.body.workspace.name, name);
    }
    const list = await app.json<{ workspaces: unknown[] }>("/api/workspaces");
    assert.equal(list.body.workspaces.length, 1 + SQL.length + 2, "no workspace was dropped");
  });

  await t.step("[injection] SQL in a slug or thread slug finds nothing", async () => {
    for (const value of SQL) {
      const workspace = await app.json(`/api/workspace/${encodeURIComponent(value)}`);
      assert.equal(workspace.status, 404, value);
      const thread = await app.json(`/api/workspace/${slug}/thread/${encodeURIComponent(value)}/chats`);
      assert.equal(thread.status, 404, value);
    }
  });

  await t.step("[injection] SQL and markup in a thread name are stored exactly", async () => {
    const thread = await app.json<{ thread: { slug: string } }>(`/api/workspace/${slug}/thread/new`, {
      json: {},
    });
    for (const name of [...SQL, "<img src=x onerror=alert(1)>"]) {
      const renamed = await app.json<{ thread: { name: string } }>(
        `/api/workspace/${slug}/thread/${thread.body.thread.slug}/update`,
        { json: { name } },
      );
      assert.equal(renamed.status, 200, name);
      assert.equal(renamed.body.thread.name, name);
    }
    const threads = await app.json<{ threads: unknown[] }>(`/api/workspace/${slug}/threads`);
    assert.equal(threads.body.threads.length, 1);
  });

  await t.step(
    "[injection] a chat message with '\\n\\ndata: {...}' stays inside one frame's JSON",
    async () => {
      const hostile =
        'hi\n\ndata: {"type":"abort","error":"injected"}\n\nevent: x\r\n\r\ndata: {"id":"forged"}';
      const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
        method: "POST",
        body: JSON.stringify({ message: hostile }),
      });
      assert.equal(response.status, 200);
      const frames = await readFrames(response);
      assert.ok(
        !frames.some((frame) => frame.error === "injected" || frame.id === "forged"),
        "no forged frame",
      );
      const text = frames.map((frame) => frame.textResponse ?? "").join("");
      assert.ok(text.includes(hostile), "the message came back as text, whole");
      assert.equal(llm.chatRequests.at(-1)!.messages.at(-1)!.content, hostile);
    },
  );

  await t.step("[injection] a model reply with SSE syntax in it stays data of its frames", async () => {
    llm.setReply(() => ({
      chunks: ['\n\ndata: {"type":"abort","error":"from model"}\n\n', "event: close\n\n", "end"],
    }));
    const frames = await readFrames(
      await app.request(`/api/workspace/${slug}/stream-chat`, { method: "POST", body: '{"message":"go"}' }),
    );
    assert.ok(!frames.some((frame) => frame.error === "from model"));
    assert.ok(frames.some((frame) => frame.type === "finalizeResponseStream" || frame.close === true));
    llm.setReply((request) => ({ chunks: [`echo: ${request.messages.at(-1)?.content}`] }));
  });

  await t.step(
    "[injection] prompt variables expand only their own names; '{{', '{constructor}' and '\${}' stay text",
    async () => {
      const prompt =
        "A {{user.name}} {constructor} {__proto__} {toString} {hasOwnProperty} ${process.env.HOME} " +
        "{{#each x}}{{/each}} {workspace.name}";
      const updated = await app.json(`/api/workspace/${slug}/update`, {
        json: { name: "{date}", openAiPrompt: prompt },
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      await readFrames(
        await app.request(`/api/workspace/${slug}/stream-chat`, {
          method: "POST",
          body: JSON.stringify({ message: "{{constructor.constructor('return 1')()}} {date}" }),
        }),
      );
      const sent = llm.chatRequests.at(-1)!;
      const system = sent.messages[0].content;
      assert.ok(
        system.startsWith(
          "A {} {constructor} {__proto__} {toString} {hasOwnProperty} ${process.env.HOME} {{#each x}}{{/each}} {date}",
        ),
        system.slice(0, 160),
      );
      assert.ok(!system.includes("native code") && !system.includes("[object Object]"));
      assert.equal(
        sent.messages.at(-1)!.content,
        "{{constructor.constructor('return 1')()}} {date}",
        "a message is not expanded",
      );
      await app.json(`/api/workspace/${slug}/update`, { json: { name: "Injection", openAiPrompt: "" } });
    },
  );

  await t.step("[injection] CR/LF in names never becomes a response header", async () => {
    const name = "Split\r\nX-Injected: yes\r\n\r\n<html>";
    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", { json: { name } });
    assert.ok([200, 400].includes(created.status));
    const paths = ["/api/workspaces", "/api/system/logo", "/", `/workspace/${slug}`];
    if (created.status === 200) paths.push(`/api/workspace/${created.body.workspace.slug}`);
    for (const path of paths) {
      const response = await app.request(path);
      await response.body?.cancel();
      assert.equal(response.headers.get("x-injected"), null, path);
      assert.notEqual(response.status, 500, path);
    }
    const logo = await app.request("/api/system/logo");
    await logo.body?.cancel();
    assert.equal(logo.headers.get("content-disposition"), 'inline; filename="lectern-logo.svg"');
  });

  await t.step(
    "[injection] __proto__ and constructor keys in settings are refused and pollute nothing",
    async () => {
      const before = app.deps.settings.value("GenericOpenAiModelPref");
      for (
        const body of [
          '{"__proto__":{"polluted":"yes"},"GenericOpenAiModelPref":"changed"}',
          '{"constructor":{"prototype":{"polluted":"yes"}},"GenericOpenAiModelPref":"changed"}',
          '{"prototype":{"polluted":"yes"}}',
        ]
      ) {
        const answer = await app.json("/api/system/update-env", { method: "POST", body });
        assert.equal(answer.status, 400, body);
        assert.match(
          String((answer.body as { error: string }).error),
          /^Unknown setting "(__proto__|constructor|prototype)"\./,
        );
      }
      assert.equal(app.deps.settings.value("GenericOpenAiModelPref"), before, "all or nothing: unchanged");
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    },
  );

  await t.step("[injection] __proto__ in workspace, thread and chat bodies changes nothing", async () => {
    const bodies = [
      [`/api/workspace/${slug}/update`, '{"name":"Injection","__proto__":{"polluted":"yes","openAiTemp":2}}'],
      [`/api/workspace/${slug}/thread/new`, '{"__proto__":{"polluted":"yes","slug":"forced"}}'],
      [`/api/workspace/new`, '{"name":"Proto","__proto__":{"polluted":"yes","slug":"forced-slug"}}'],
      [
        "/api/system/slash-command-presets",
        '{"command":"/p","prompt":"x","description":"d","__proto__":{"polluted":1}}',
      ],
    ];
    for (const [path, body] of bodies) {
      const answer = await app.json(path, { method: "POST", body });
      assert.notEqual(answer.status, 500, `${path}: ${JSON.stringify(answer.body)}`);
      assert.ok(!JSON.stringify(answer.body).includes("forced"), path);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const workspace = await app.json<{ workspace: { openAiTemp: number | null } }>(`/api/workspace/${slug}`);
    assert.notEqual(workspace.body.workspace.openAiTemp, 2);
  });

  await stillAnswers(app);
});

Deno.test("security: SQL-ish usernames are refused or answered like any wrong login", async (t) => {
  await using app = await configuredTestApp();
  const admin = await multiUserInstance(app);

  await t.step("[injection] SQL in a login's username or password is an ordinary failed login", async () => {
    for (const value of SQL) {
      for (
        const body of [{ username: value, password: "x-password" }, { username: "admin", password: value }]
      ) {
        const answer = await app.json("/api/request-token", { json: body });
        assert.equal(answer.status, 401, JSON.stringify(body));
        assert.equal((answer.body as { message: string }).message, "[001] Invalid login credentials.");
      }
    }
    await login(app, "admin", "admin-password");
  });

  await t.step(
    "[injection] SQL or wildcards in a new username are refused with the username rule",
    async () => {
      for (const username of [...SQL, "adm%", "a_%", "admin\u0000"]) {
        const answer = await app.json("/api/admin/users/new", {
          ...bearer(admin.token),
          json: { username, password: "some-password", role: "default" },
        });
        assert.equal(answer.status, 400, username);
        assert.equal(
          (answer.body as { error: string }).error,
          "Username can only contain lowercase letters, numbers, underscores and hyphens.",
        );
      }
    },
  );

  await t.step("[injection] a role or id in a user body cannot be smuggled by a lower role", async () => {
    const manager = await addUser(app, admin, "mgr", "manager");
    const answer = await app.json("/api/system/user", {
      ...bearer(manager.token),
      json: { bio: "hello", role: "admin", id: admin.user.id, __proto__: { role: "admin" } },
    });
    assert.equal(answer.status, 200);
    const again = await login(app, "mgr", "mgr-password");
    assert.equal(again.user.role, "manager");
    assert.equal(again.user.id, manager.user.id);
  });
});
