import assert from "node:assert/strict";
import { users } from "../../db/schema.ts";
import { bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { LABELS } from "../../server/settings/service.ts";
import { browserTestOptions, hydrated, launchChromium } from "../browser/chromium.ts";
import { signIn } from "../browser/sessions.ts";
import { truncateThreadName } from "../../client/features/threads/names.ts";
import { createLogger } from "../../server/log.ts";
import {
  assertInert,
  attackPage,
  browserDialogs,
  type CrossSiteVector,
  PAYLOADS,
  startLoopbackSite,
} from "./hostile_pages.ts";

const { img, script, svg, closeScript, markdownLink, anchor, dataLink } = PAYLOADS;

/** Raw markup of the payloads that must never stand unescaped in server-rendered HTML. */
const RAW_MARKUP = [/<img src=x onerror/i, /<script>window\.__xss/i, /<svg onload/i, /<a href="javascript:/i];

/** The image payload as React escapes it in text and attributes. */
const ESCAPED_IMG = "&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;";

function assertEscaped(html: string, where: string) {
  for (const raw of RAW_MARKUP) assert.doesNotMatch(html, raw, `${where}: unescaped payload in the HTML`);
}

Deno.test({
  name: "security [xss]: stored payloads in every user-controlled text stay text on every page",
  ...browserTestOptions,
  async fn(t) {
    await using llm = startFakeOpenAi();
    // The model answers in markdown carrying every payload: raw HTML, script and data: links, a code block.
    const ANSWER = [
      `Answer ${img} and ${script}`,
      `Then ${svg} and ${anchor}`,
      `A link ${markdownLink}, an autolink <javascript:window.__xss=1> and ${dataLink}.`,
      "",
      `<div onmouseover="window.__xss=1">html block</div>`,
      "",
      "```html",
      closeScript,
      "```",
    ].join("\n");
    llm.setReply((request) => {
      const question = String(request.messages.at(-1)?.content ?? "");
      return { chunks: [ANSWER, `\n\nYou asked: ${question}`] };
    });
    await using app = await configuredTestApp({ llm: llm.baseURL });
    const admin = await multiUserInstance(app);
    const as = bearer(admin.token);

    const APP_NAME = `Lectern ${img}</title>`;
    const SUPPORT = `help${svg}@example.org`;
    const WORKSPACE = `Atlas ${img} ${script}`;
    // One thread name short enough to show whole in the sidebar (25 characters), one cut there.
    const THREAD = "<svg onload=alert(1)>";
    const LONG_THREAD = `Thread ${svg} ${closeScript}`;
    const SYSTEM_PROMPT = `Prompt ${img} ${anchor}`;
    const HEADING = `Heading ${img}`;
    const SUGGESTION = `Suggestion ${svg}`;
    // A browser sends a file name's double quotes as %22 (as Deno's FormData does), so this payload has none.
    const FILE_NAME = "<img src=x onerror=alert(1)>.txt";
    const FILE_TEXT = `Zanzibar lighthouse keepers ${script} ${img} ${markdownLink}`;
    const USERNAME = `bob${img}`;
    const PRESET_PROMPT = `Preset prompt ${img} ${markdownLink}`;
    const QUESTION = `Zanzibar lighthouse keepers? ${img} ${markdownLink}`;

    await app.deps.settings.setLabels({ [LABELS.customAppName]: APP_NAME, [LABELS.supportEmail]: SUPPORT });
    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      ...as,
      json: { name: WORKSPACE },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const slug = created.body.workspace.slug;
    const saved = [
      await app.json(`/api/workspace/${slug}/update`, { ...as, json: { openAiPrompt: SYSTEM_PROMPT } }),
      await app.json(`/api/workspace/${slug}/suggested-messages`, {
        ...as,
        json: { messages: [{ heading: HEADING, message: SUGGESTION }] },
      }),
    ];
    for (const answer of saved) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const threads: string[] = [];
    for (const name of [THREAD, LONG_THREAD]) {
      const thread = await app.json<{ thread: { slug: string } }>(`/api/workspace/${slug}/thread/new`, {
        ...as,
        method: "POST",
      });
      threads.push(thread.body.thread.slug);
      const renamed = await app.json(`/api/workspace/${slug}/thread/${thread.body.thread.slug}/update`, {
        ...as,
        json: { name },
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    }
    const preset = await app.json("/api/system/slash-command-presets", {
      ...as,
      json: { command: "hostile", prompt: PRESET_PROMPT, description: `Description ${img}` },
    });
    assert.equal(preset.status, 201, JSON.stringify(preset.body));
    const form = new FormData();
    form.append("file", new File([FILE_TEXT], FILE_NAME, { type: "text/plain" }));
    const uploaded = await app.json(`/api/workspace/${slug}/upload-and-embed`, {
      ...as,
      method: "POST",
      body: form,
    });
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));

    const url = app.listen();
    const browser = await launchChromium();
    try {
      // The CSP (script-src 'self') would stop an inline handler that got through; it is bypassed here so that
      // these steps test the escaping itself.
      const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const dialogs = browserDialogs(page);
      await signIn(page, url, admin);
      await page.goto(`${url}/`);
      await hydrated(page);

      await t.step(
        "[xss] the custom app name is shown as text in the sidebar and the page title",
        async () => {
          await assertInert(page, dialogs, [APP_NAME], "home");
          assert.equal(await page.locator(".brand").textContent(), APP_NAME);
          assert.equal(await page.title(), `Home | ${APP_NAME}`);
        },
      );

      await t.step("[xss] a workspace name is shown as text on home and in the sidebar", async () => {
        await assertInert(page, dialogs, [WORKSPACE], "home");
        // The sidebar is rendered by the server; home's own list arrives with its first API call.
        await page.getByText(WORKSPACE, { exact: true }).nth(1).waitFor();
        assert.equal(await page.getByText(WORKSPACE, { exact: true }).count() >= 2, true);
      });

      await t.step("[xss] the support address stays inside a mailto: link's target", async () => {
        await page.getByRole("button", { name: "Account menu" }).click();
        const support = page.getByRole("link", { name: "Support" });
        assert.equal(await support.getAttribute("href"), `mailto:${SUPPORT}`);
        await assertInert(page, dialogs, [], "home, account menu open");
      });

      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);

      await t.step("[xss] the workspace chat shows the workspace name as its heading, as text", async () => {
        // The sidebar shows the name at once; the heading replaces "Loading workspace..." once the workspace loads.
        await page.waitForFunction(
          (wanted) => document.querySelector("#workspace-title")?.textContent === wanted,
          WORKSPACE,
        ).catch(async () => {
          throw new Error(`the heading shows ${await page.locator("#workspace-title").textContent()}`);
        });
        await assertInert(page, dialogs, [WORKSPACE], "workspace chat");
      });

      await t.step("[xss] suggested messages show their heading and message as text", async () => {
        await assertInert(page, dialogs, [HEADING, SUGGESTION], "workspace chat");
      });

      const answer = page.locator(".message.assistant").first();
      await t.step("[xss] a chat message with markup is shown as the text that was sent", async () => {
        await page.getByLabel("Your message").fill(QUESTION);
        await page.getByLabel("Your message").press("Enter");
        await answer.getByText("You asked:", { exact: false }).waitFor();
        await assertInert(page, dialogs, [QUESTION], "chat");
        assert.equal(await page.locator(".message.user .message-text").first().textContent(), QUESTION);
      });

      await t.step("[xss] raw HTML in the model's markdown answer is escaped, not rendered", async () => {
        await assertInert(
          page,
          dialogs,
          [`Answer ${img} and ${script}`, `Then ${svg} and ${anchor}`],
          "answer",
        );
        assert.equal(await answer.locator("img, script, svg, div[onmouseover], a:text('click')").count(), 0);
      });

      await t.step("[xss] javascript: targets in markdown links and autolinks become no link", async () => {
        await assertInert(page, dialogs, [markdownLink, "<javascript:window.__xss=1>"], "answer");
        const targets = await answer.locator("a").evaluateAll((links) =>
          links.map((a) => a.getAttribute("href"))
        );
        assert.deepEqual(targets, [], "the answer has no link at all");
      });

      await t.step("[xss] a data:text/html target in a markdown link becomes no link", async () => {
        await assertInert(page, dialogs, [dataLink], "answer");
        assert.equal(await answer.locator("a[href^='data:']").count(), 0);
      });

      await t.step("[xss] </script> in a fenced code block is code text", async () => {
        await assertInert(page, dialogs, [closeScript], "answer");
        assert.equal(await answer.locator("pre code").textContent(), `${closeScript}\n`);
      });

      await t.step("[xss] a slash-command preset's prompt reaches the answer as text", async () => {
        await page.getByLabel("Your message").fill("/hostile");
        await page.getByLabel("Your message").press("Enter");
        await page.locator(".message.assistant").nth(1).getByText("You asked:", { exact: false }).waitFor();
        await assertInert(page, dialogs, [`You asked: ${PRESET_PROMPT}`], "preset answer");
      });

      await t.step("[xss] the citations panel shows a document's name and text as text", async () => {
        await answer.getByRole("button", { name: /^<img src=x/ }).click();
        const dialog = page.getByRole("dialog");
        await dialog.waitFor();
        await assertInert(page, dialogs, [FILE_NAME, FILE_TEXT], "citations");
        assert.equal(await dialog.locator("img, script, svg").count(), 0);
        await page.keyboard.press("Escape");
      });

      await t.step("[xss] the documents panel shows an uploaded file's name as text", async () => {
        await page.getByRole("button", { name: /^Documents \(1\)/ }).click();
        const panel = page.getByRole("region", { name: "Documents", exact: true });
        await panel.waitFor();
        // Both lists load after the panel opens: wait for the name in the library and in the workspace.
        await panel.getByText(FILE_NAME, { exact: true }).nth(1).waitFor();
        await assertInert(page, dialogs, [FILE_NAME], "documents panel");
      });

      await t.step("[xss] the stored chat history renders as text after a reload", async () => {
        await page.reload();
        await hydrated(page);
        await page.locator(".message.assistant").nth(1).waitFor();
        await assertInert(page, dialogs, [QUESTION, `Answer ${img} and ${script}`, PRESET_PROMPT], "history");
        assert.equal(await page.locator(".message.assistant a").count(), 0);
      });

      await t.step(
        "[xss] thread names are text in the sidebar, whole or cut, and whole in the tooltip",
        async () => {
          await page.goto(`${url}/workspace/${slug}/t/${threads[0]}`);
          await hydrated(page);
          await assertInert(page, dialogs, [THREAD, truncateThreadName(LONG_THREAD)], "thread page");
          const titles = await page.locator(".thread-link").evaluateAll((links) =>
            links.map((a) => a.getAttribute("title"))
          );
          assert.ok(titles.includes(THREAD) && titles.includes(LONG_THREAD), JSON.stringify(titles));
        },
      );

      await t.step(
        "[xss] the workspace settings hold the name and suggested messages as field values",
        async () => {
          await page.goto(`${url}/workspace/${slug}/settings/general-appearance`);
          await hydrated(page);
          assert.equal(await page.getByLabel("Display name").inputValue(), WORKSPACE);
          const heading = page.locator("[id^=ws-suggested-heading-]").first();
          assert.equal(await heading.inputValue(), HEADING);
          await assertInert(page, dialogs, [WORKSPACE], "workspace settings, general");
        },
      );

      await t.step("[xss] the chat settings hold the system prompt as a field value", async () => {
        await page.goto(`${url}/workspace/${slug}/settings/chat-settings`);
        await hydrated(page);
        assert.equal(await page.getByLabel("Prompt", { exact: true }).inputValue(), SYSTEM_PROMPT);
        await assertInert(page, dialogs, [], "workspace settings, chat");
      });

      await t.step(
        "[xss] a username with markup is refused, and one stored anyway shows as text",
        async () => {
          const refused = await app.json<{ error: string }>("/api/admin/users/new", {
            ...as,
            json: { username: USERNAME, password: "bob-password", role: "default" },
          });
          assert.equal(refused.status, 400, JSON.stringify(refused.body));
          await app.deps.db.insert(users).values({
            username: USERNAME,
            password: "not-a-hash",
            role: "default",
          });
          await page.goto(`${url}/settings/users`);
          await hydrated(page);
          await assertInert(page, dialogs, [USERNAME], "users");
        },
      );

      await t.step("[xss] the login page shows the app name as text", async () => {
        const visitor = await browser.newContext({ bypassCSP: true });
        const login = await visitor.newPage();
        const seen = browserDialogs(login);
        await login.goto(`${url}/login`);
        await hydrated(login);
        await assertInert(login, seen, [APP_NAME], "login");
        await visitor.close();
      });
    } finally {
      await browser.close();
    }

    for (const path of ["/", "/login", "/workspace/<slug>", "/settings/users"]) {
      await t.step(
        `[xss] the server-rendered HTML of ${path} escapes the app name and support address`,
        async () => {
          const html = await (await app.request(path.replace("<slug>", slug))).text();
          assertEscaped(html, path);
          assert.ok(html.includes(`Lectern ${ESCAPED_IMG}`), "the name is there, escaped");
          if (path !== "/login") {
            assert.ok(
              html.includes("&lt;svg onload=window.__xss=1&gt;@example.org"),
              "the support address, escaped",
            );
          }
        },
      );
    }

    const hostile = encodeURIComponent(`${img}${closeScript}${svg}`);
    for (
      const [what, path] of [
        ["a single sign-on token and redirectTo", `/sso/simple?token=${hostile}&redirectTo=${hostile}`],
        ["an invitation code", `/accept-invite/${hostile}`],
        ["a workspace slug", `/workspace/${hostile}`],
        ["a thread slug", `/workspace/atlas/t/${hostile}`],
      ]
    ) {
      await t.step(`[xss] ${what} reflected into an island's props is escaped in the HTML`, async () => {
        const html = await (await app.request(path)).text();
        assertEscaped(html, path);
        assert.ok(html.includes("&lt;img src=x onerror="), "the value is in the page, escaped");
      });
    }
  },
});

/** State-changing routes of an open single-user instance and a body that would change each. */
const CSRF_TARGETS = [
  // update-env refuses unknown keys, so its text/plain form needs a "=" inside a value: the URL's query.
  {
    path: "/api/system/update-env",
    body: { LLMProvider: "ollama", OllamaLLMBasePath: "http://127.0.0.1:9?x=1" },
  },
  { path: "/api/workspace/new", body: { name: "Planted by another site" } },
  { path: "/api/system/update-password", body: { usePassword: true, newPassword: "planted-password" } },
  { path: "/api/system/enable-multi-user", body: { username: "intruder", password: "intruder-password" } },
] as const;

const CROSS_SITE_REFUSAL = {
  success: false,
  error:
    "Requests from other web sites are refused: open this instance itself, or call the API without a browser.",
};

Deno.test({
  name: "security [csrf]: pages of another loopback site cannot change an open instance through the browser",
  ...browserTestOptions,
  async fn(t) {
    const lines: string[] = [];
    await using app = await configuredTestApp({ log: createLogger("info", (line) => lines.push(line)) });
    const url = app.listen();
    await using evil = startLoopbackSite();

    /** What the routes above would change, read through the API. */
    const state = async () => {
      const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
      const list = await app.json<{ workspaces: { name: string }[] }>("/api/workspaces");
      const { LLMProvider, RequiresAuth, MultiUserMode } = setup.body.results;
      return {
        LLMProvider,
        RequiresAuth,
        MultiUserMode,
        workspaces: list.body.workspaces?.map((w) => w.name),
      };
    };
    const before = await state();
    assert.deepEqual(before, {
      LLMProvider: "generic-openai",
      RequiresAuth: false,
      MultiUserMode: false,
      workspaces: [],
    });

    /** The status the instance logged for the next `method path` request after `from` log lines. */
    const answered = async (method: string, path: string, from: number) => {
      const pattern = new RegExp(` INFO ${method} ${path.replaceAll("/", "\\/")} status=(\\d+)`);
      let match: RegExpMatchArray | null = null;
      await waitUntil(() => (match = lines.slice(from).map((line) =>
        line.match(pattern)
      ).find(Boolean) ?? null));
      return Number(match![1]);
    };

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(10_000);
      for (const vector of ["form", "fetch", "beacon"] as const) {
        for (const target of CSRF_TARGETS) {
          const how = { form: "a text/plain form", fetch: "a no-cors fetch", beacon: "a beacon" }[vector];
          await t.step(
            `[csrf] ${how} from another site to ${target.path} is refused (403), nothing changes`,
            async () => {
              const from = lines.length;
              await page.goto(
                evil.page(
                  `/${vector}${target.path}`,
                  attackPage(vector, `${url}${target.path}`, target.body),
                ),
              );
              assert.equal(await answered("POST", target.path, from), 403);
              if (vector === "form") {
                // The form navigated the tab to the instance's answer.
                await page.waitForURL(`${url}${target.path}`);
                assert.deepEqual(JSON.parse(await page.locator("body").innerText()), CROSS_SITE_REFUSAL);
              } else if (vector === "fetch") {
                // The answer is not even handed to the page: Cross-Origin-Resource-Policy fails the fetch.
                await page.waitForFunction(() => document.title === "failed");
              } else {
                await page.waitForFunction(() => document.title === "sent");
              }
              assert.deepEqual(await state(), before);
            },
          );
        }
      }

      for (const target of CSRF_TARGETS.slice(0, 2)) {
        await t.step(
          `[csrf] a form in a sandboxed frame (Origin: null) to ${target.path} is refused`,
          async () => {
            const from = lines.length;
            await page.goto(
              evil.page(
                `/sandboxed${target.path}`,
                attackPage("sandboxed-form", `${url}${target.path}`, target.body),
              ),
            );
            assert.equal(await answered("POST", target.path, from), 403);
            assert.deepEqual(await state(), before);
          },
        );
      }

      await t.step(
        "[csrf] a navigation from another site to the state-changing routes changes nothing",
        async () => {
          for (const target of CSRF_TARGETS) {
            const from = lines.length;
            await page.goto(
              evil.page(
                "/navigate",
                `<!doctype html><script>location.href = ${JSON.stringify(`${url}${target.path}`)}</script>`,
              ),
            );
            await page.waitForURL(`${url}${target.path}`);
            assert.equal(await answered("GET", target.path, from), 404, target.path);
          }
          assert.deepEqual(await state(), before);
        },
      );

      // Controls: the same pages served from the instance's own origin do change it, so the refusals above are
      // the cross-site check and not a route that refuses everything.
      const own = async (name: string, vector: CrossSiteVector, target: { path: string; body: object }) => {
        const path = `/own-page/${name}`;
        await page.route(
          `${url}${path}`,
          (route) =>
            route.fulfill({
              contentType: "text/html",
              body: attackPage(vector, `${url}${target.path}`, target.body as Record<string, unknown>),
            }),
        );
        const from = lines.length;
        await page.goto(`${url}${path}`);
        const status = await answered("POST", target.path, from);
        await page.unroute(`${url}${path}`);
        return status;
      };

      await t.step(
        "[csrf] control: the same text/plain form from the instance's own page saves settings",
        async () => {
          assert.equal(await own("form-env", "form", CSRF_TARGETS[0]), 200);
          assert.equal((await state()).LLMProvider, "ollama");
        },
      );

      await t.step(
        "[csrf] control: the same form, fetch and beacon from the instance's own page create workspaces",
        async () => {
          for (const vector of ["form", "fetch", "beacon"] as const) {
            const body = { name: `Own ${vector}` };
            assert.equal(
              await own(`workspace-${vector}`, vector, { path: "/api/workspace/new", body }),
              200,
              vector,
            );
          }
          assert.deepEqual((await state()).workspaces?.sort(), ["Own beacon", "Own fetch", "Own form"]);
        },
      );

      await t.step(
        "[csrf] control: the same fetch from the instance's own page sets the password",
        async () => {
          assert.equal(await own("password", "fetch", CSRF_TARGETS[2]), 200);
          assert.equal((await state()).RequiresAuth, true);
          // Open again for the next control: signed in with the new password, the password is removed.
          const session = await app.json<{ token: string }>("/api/request-token", {
            json: { password: "planted-password" },
          });
          const open = await app.json("/api/system/update-password", {
            ...bearer(session.body.token),
            json: { usePassword: false },
          });
          assert.equal(open.status, 200, JSON.stringify(open.body));
          assert.equal((await state()).RequiresAuth, false);
        },
      );

      await t.step(
        "[csrf] control: the same beacon from the instance's own page turns on multi-user mode",
        async () => {
          assert.equal(await own("multi-user", "beacon", CSRF_TARGETS[3]), 200);
          assert.equal(app.deps.settings.multiUserMode, true);
        },
      );
    } finally {
      await browser.close();
    }
  },
});

async function waitUntil(done: () => unknown, what = "the instance to log the request") {
  for (let tries = 0; tries < 200; tries++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Gave up waiting for ${what}`);
}

/**
 * Where a browser goes after signing in: a multi-user instance with single sign-on, whose admin took the
 * recovery codes already (so a login goes straight on), and a second loopback site standing for the attacker.
 */
async function redirectHarness() {
  const app = await configuredTestApp({ env: { SIMPLE_SSO_ENABLED: "1" } });
  const admin = await multiUserInstance(app);
  await app.json("/api/workspace/new", { ...bearer(admin.token), json: { name: "Atlas" } });
  const url = app.listen();
  const evil = startLoopbackSite();
  const evilHost = new URL(evil.origin).host;
  const browser = await launchChromium();
  // One profile for every step, so the client's files come from its cache; its session is cleared each time.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const dialogs = browserDialogs(page);
  const blank = `${url}/test-blank`;
  await page.route(blank, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html>" }));

  // Each target as it stands in the query string: %09 a tab, %0A a newline, %5C a backslash, which the URL
  // parser drops or reads as "/", so that most of them become "//127.0.0.2:port" when navigated to.
  const hostile: [string, string][] = [
    ["a protocol-relative URL", `//${evilHost}/`],
    ["a tab between the slashes", `/%09/${evilHost}/`],
    ["a newline between the slashes", `/%0A/${evilHost}/`],
    ["a CR LF between the slashes", `/%0D%0A/${evilHost}/`],
    ["a slash and a backslash", `/%5C${evilHost}/`],
    ["a backslash and a slash", `%5C/${evilHost}/`],
    ["a dot segment before two slashes", `/.//${evilHost}/`],
    ["a parent segment before two slashes", `/..//${evilHost}/`],
    ["a leading space", `%20//${evilHost}/`],
    ["an http URL", `http://${evilHost}/`],
    ["an https URL", `https://${evilHost}/`],
    ["a javascript: URL", "javascript:window.__xss=1"],
    ["a data: URL", "data:text/html,%3Cscript%3Ewindow.__xss=1%3C/script%3E"],
  ];

  return {
    app,
    url,
    hostile,
    /**
     * Opens `path` signed out, signs in with the password form when it is the login page (a single sign-on link
     * signs in by itself), and returns the address the tab settled on, once it checked that no script ran and
     * that the other site was never asked for anything.
     */
    async landing(path: string) {
      // Signed out: the stored session is dropped from a blank page of the instance's origin.
      await page.goto(blank);
      await page.evaluate(() => globalThis.localStorage.clear());
      const hits = evil.hits.length;
      await page.goto(`${url}${path}`, { waitUntil: "commit" });
      if (path.startsWith("/login")) {
        await hydrated(page);
        await page.getByLabel("Username", { exact: true }).fill("admin");
        await page.getByLabel("Password", { exact: true }).fill("admin-password");
        await page.getByRole("button", { name: "Sign in", exact: true }).click();
      }
      await page.waitForURL((address) => !/^\/(login|sso\/simple)$/.test(address.pathname));
      await page.waitForLoadState("domcontentloaded");
      assert.equal(
        await page.evaluate(() => (globalThis as Record<string, unknown>).__xss),
        undefined,
        "no script ran",
      );
      assert.deepEqual(dialogs, []);
      assert.deepEqual(evil.hits.slice(hits), [], "the other site was not visited");
      return page.url();
    },
    /** A single sign-on link for the admin, with `redirectTo` as it stands in the query string. */
    async ssoPath(redirectTo: string) {
      const issued = await app.json<{ token: string }>(`/api/admin/user/${admin.user.id}/issue-auth-token`, {
        ...bearer(admin.token),
        method: "POST",
      });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      return `/sso/simple?token=${encodeURIComponent(issued.body.token)}&redirectTo=${redirectTo}`;
    },
    async [Symbol.asyncDispose]() {
      await browser.close();
      await evil[Symbol.asyncDispose]();
      await app.close();
    },
  };
}

Deno.test({
  name: "security [open-redirect]: after a login the browser stays on the instance, whatever redirectTo says",
  ...browserTestOptions,
  async fn(t) {
    await using harness = await redirectHarness();
    const { url, hostile, landing } = harness;

    await t.step(
      "[open-redirect] control: a redirectTo on this site is followed after the login",
      async () => {
        const path = encodeURIComponent("/workspace/atlas?from=login#top");
        assert.equal(await landing(`/login?redirectTo=${path}`), `${url}/workspace/atlas?from=login#top`);
      },
    );

    // A login costs a page load, a password check and home's load: this test takes the targets the URL parser
    // turns into another host and the two schemes; the single sign-on test below takes all of them.
    const named = [
      "protocol",
      "tab",
      "newline",
      "slash and",
      "backslash and",
      "dot",
      "parent",
      "https",
      "javascript",
    ];
    const some = hostile.filter(([what]) => named.some((word) => what.includes(word)));
    assert.equal(some.length, named.length);
    for (const [what, target] of some) {
      await t.step(
        `[open-redirect] /login?redirectTo= with ${what} lands on the instance's home`,
        async () => {
          assert.equal(await landing(`/login?redirectTo=${target}`), `${url}/`);
        },
      );
    }
  },
});

Deno.test({
  name:
    "security [open-redirect]: a single sign-on link's redirectTo cannot send the browser to another site",
  ...browserTestOptions,
  async fn(t) {
    await using harness = await redirectHarness();
    const { url, hostile, landing, ssoPath } = harness;

    await t.step(
      "[open-redirect] control: a single sign-on link's redirectTo on this site is followed",
      async () => {
        assert.equal(
          await landing(await ssoPath(encodeURIComponent("/workspace/atlas"))),
          `${url}/workspace/atlas`,
        );
      },
    );

    for (const [what, target] of hostile) {
      await t.step(
        `[open-redirect] /sso/simple?redirectTo= with ${what} lands on the instance's home`,
        async () => {
          assert.equal(await landing(await ssoPath(target)), `${url}/`);
        },
      );
    }
  },
});
