import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { createTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { LABELS } from "../../server/settings/service.ts";
import { signIn } from "./sessions.ts";
import { browserTestOptions, hydrated, launchChromium, pageErrors, watchErrors } from "./chromium.ts";

/** Onboarding inputs settle for 500 ms before the forward arrow reacts. */
const SETTLED_MS = 700;

const stored = (page: Page, key: string) =>
  page.evaluate((name) => globalThis.localStorage.getItem(name), key);

const forward = (page: Page) => page.getByRole("button", { name: "Continue" });
const backArrow = (page: Page) => page.getByRole("link", { name: "Back" });

async function isEnabled(page: Page): Promise<boolean> {
  return await forward(page).isEnabled();
}

/** The forward arrow is (still) disabled once the inputs have settled. */
async function staysDisabled(page: Page, why: string) {
  await page.waitForTimeout(SETTLED_MS);
  assert.equal(await isEnabled(page), false, why);
}

async function becomesEnabled(page: Page, why: string) {
  await page.waitForFunction(
    () => {
      const button = document.querySelector<HTMLButtonElement>('button[aria-label="Continue"]');
      return button !== null && !button.disabled;
    },
    undefined,
    { timeout: 5000 },
  ).catch(() => {
    throw new Error(`The forward arrow stayed disabled: ${why}`);
  });
}

/** Opens a wizard step (or lands on it) and waits until the step itself shows. */
async function atStep(page: Page, url: string, step: string, heading: string) {
  await page.waitForURL(`${url}/onboarding/${step}`);
  await hydrated(page);
  await page.getByRole("heading", { name: heading, exact: true }).waitFor();
}

async function backLeadsTo(page: Page, step: string) {
  assert.equal(await backArrow(page).getAttribute("href"), `/onboarding/${step}`);
}

/** Step 1 on a fresh instance: any guarded page sends the visitor here. */
async function startWizard(page: Page, url: string) {
  await page.goto(`${url}/settings/llm-preference`);
  await page.waitForURL(`${url}/onboarding`);
  await hydrated(page);
  await page.getByText("Welcome to", { exact: true }).waitFor();
  assert.equal(await backArrow(page).count(), 0, "the first step has no back arrow");
  assert.equal(await forward(page).count(), 0, "the first step has no forward arrow");
  await page.getByRole("link", { name: "Get started" }).click();
  await atStep(page, url, "llm-preference", "LLM Preference");
  await backLeadsTo(page, "home");
}

async function chooseProvider(page: Page, search: string, name: string) {
  await page.getByPlaceholder("Search LLM providers").fill(search);
  await page.getByRole("radio", { name: new RegExp(name) }).check({ force: true });
}

/** Generic OpenAI pointed at the fake; first a base path the server refuses. */
async function chooseGenericOpenAi(page: Page, baseURL: string) {
  await chooseProvider(page, "generic", "Generic OpenAI");
  assert.equal(
    await page.getByText("Using a locally hosted LLM is experimental. Use with caution.").count(),
    0,
    "a hosted provider carries no local notice",
  );
  await page.locator('input[name="GenericOpenAiBasePath"]').fill("ftp://example.com/v1");
  await page.locator('input[name="GenericOpenAiModelPref"]').fill("fake-model");
  await page.locator('input[name="GenericOpenAiTokenLimit"]').fill("4096");
  await forward(page).click();
  await page.getByText(/^Failed to save LLM settings: .*URL is not a valid URL\./).first().waitFor();
  assert.match(page.url(), /\/onboarding\/llm-preference$/, "a failed save stays on the step");
  await page.locator('input[name="GenericOpenAiBasePath"]').fill(baseURL);
  await forward(page).click();
}

/** Step 4: the summary; forward goes to the survey. */
async function dataHandling(page: Page, url: string, llmName: string) {
  await atStep(page, url, "data-handling", "Data Handling & Privacy");
  await backLeadsTo(page, "user-setup");
  await page.locator(".privacy-name", { hasText: llmName }).waitFor();
  await page.locator(".privacy-name", { hasText: "Lectern Embedder" }).waitFor();
  await page.locator(".privacy-name", { hasText: "LanceDB" }).waitFor();
  await page.getByText("These settings can be reconfigured at any time in the settings.").waitFor();
  assert.equal(await isEnabled(page), true);
  await forward(page).click();
  await atStep(page, url, "survey", "Welcome");
  await backLeadsTo(page, "data-handling");
}

/**
 * Step 6: forward waits for a name; a name the server refuses gives the failure toast; then the workspace,
 * the success toast (the spec's words, "Taking you to home...") and, a second later, that workspace's chat.
 * Afterwards the wizard is closed: it sends visitors home, which lists the workspace.
 */
async function createWorkspace(page: Page, url: string, app: TestApp, name: string) {
  await atStep(page, url, "create-workspace", "Create your first workspace");
  await backLeadsTo(page, "survey");
  const field = page.getByPlaceholder("My Workspace");
  assert.equal(await isEnabled(page), false, "forward waits for a name");
  await field.fill("   ");
  assert.equal(await isEnabled(page), false, "a blank name is no name");
  await field.fill("x".repeat(256));
  await forward(page).click();
  await page.getByText(/^Failed to create workspace: .+/).first().waitFor();
  assert.equal(app.deps.settings.label(LABELS.onboardingComplete), undefined, "not complete yet");

  await field.fill(name);
  const created = page.waitForResponse((response) =>
    response.url().endsWith("/api/workspace/new") && response.status() === 200
  );
  const started = Date.now();
  await forward(page).click();
  const { workspace } = await (await created).json() as { workspace: { slug: string; name: string } };
  assert.equal(workspace.name, name);
  await page.getByText("Workspace created successfully! Taking you to home...").waitFor();
  await page.waitForURL(`${url}/workspace/${workspace.slug}`, { timeout: 10_000 });
  assert.ok(Date.now() - started >= 900, "the workspace follows after a second");
  await hydrated(page);
  const current = page.locator("nav.sidebar").getByRole("link", { name, exact: true });
  await current.waitFor();
  assert.equal(await current.getAttribute("aria-current"), "page", "its chat is the page shown");
  await page.getByRole("textbox", { name: "Your message" }).waitFor();
  assert.equal(app.deps.settings.label(LABELS.onboardingComplete), "true");

  for (const path of ["/onboarding", "/onboarding/llm-preference", "/onboarding/create-workspace"]) {
    await page.goto(url + path);
    await page.waitForURL(`${url}/`);
  }
  await hydrated(page);
  await page.locator(".workspace-cards").getByRole("link", { name: new RegExp(name) }).waitFor();
}

Deno.test({
  name: "browser: onboarding, just me without a password, with LM Studio found through its model list",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await createTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await startWizard(page, url);

      // Every provider with a form is offered; OpenAI is chosen by default.
      assert.equal(await page.getByRole("radio", { name: /OpenAI/ }).first().isChecked(), true);
      assert.equal(await isEnabled(page), true, "the LLM step can always be submitted");
      await chooseProvider(page, "studio", "LM Studio");
      assert.equal(await page.locator(".provider-option").count(), 1, "the search filters the list");
      await page.getByText("Using a locally hosted LLM is experimental. Use with caution.").waitFor();
      await page.getByText("This provider needs an embedding service", { exact: false }).waitFor();

      // No base path is saved: auto-detect tries the usual addresses, finds nothing and asks for it.
      await page.getByText("Couldn't automatically discover the provider endpoint. Please enter it manually.")
        .waitFor({ timeout: 10_000 });
      await page.getByText("LM Studio @ http://localhost:1234/v1 did not resolve.").waitFor();
      await page.getByText("LM Studio @ http://host.docker.internal:1234/v1 did not resolve.").waitFor();
      const model = page.locator('select[name="LMStudioModelPref"]');
      assert.equal(await model.isDisabled(), true);
      assert.equal((await model.textContent())?.trim(), "-- waiting for URL --");

      // A base path the server refuses: the save fails with the spec's toast.
      const basePath = page.locator('input[name="LMStudioBasePath"]');
      await basePath.fill("http://127.0.0.1:9/api");
      await forward(page).click();
      await page.getByText(/^Failed to save LLM settings: .*URL must contain \/v1/).first().waitFor();
      assert.equal(app.deps.settings.value("LLMProvider"), undefined);

      await basePath.fill(llm.baseURL);
      await model.locator("option", { hasText: "fake-model" }).waitFor({ state: "attached" });
      assert.equal(await model.isEnabled(), true);
      assert.equal(await model.inputValue(), "fake-model");
      assert.equal(await model.locator("optgroup").getAttribute("label"), "lectern-tests");
      await forward(page).click();

      await atStep(page, url, "user-setup", "User Setup");
      assert.equal(app.deps.settings.value("LLMProvider"), "lmstudio");
      assert.equal(app.deps.settings.value("LMStudioBasePath"), llm.baseURL);
      assert.equal(app.deps.settings.value("LMStudioModelPref"), "fake-model");
      assert.equal(app.deps.settings.value("EmbeddingEngine"), "native", "onboarding forces the embedder");
      assert.equal(app.deps.settings.value("VectorDB"), "lancedb", "and the vector database");

      // Back on the LLM step, the saved provider and model are preselected and nothing is auto-detected.
      await backLeadsTo(page, "llm-preference");
      await backArrow(page).click();
      await atStep(page, url, "llm-preference", "LLM Preference");
      assert.equal(await page.getByRole("radio", { name: /LM Studio/ }).isChecked(), true);
      assert.equal(await page.locator('input[name="LMStudioBasePath"]').inputValue(), llm.baseURL);
      await page.locator('select[name="LMStudioModelPref"] option', { hasText: "fake-model" })
        .waitFor({ state: "attached" });
      assert.equal(await page.locator('select[name="LMStudioModelPref"]').inputValue(), "fake-model");
      assert.equal(await page.getByText("Provider endpoint discovered automatically.").count(), 0);
      await forward(page).click();

      // User setup: forward only for Just me + No, or Yes + a password of 8 characters.
      await atStep(page, url, "user-setup", "User Setup");
      await staysDisabled(page, "nothing chosen");
      await page.getByText("Just me", { exact: true }).click();
      await staysDisabled(page, "Just me without the password question answered");
      await page.getByText("Yes", { exact: true }).click();
      await staysDisabled(page, "Yes without a password");
      const password = page.getByLabel("Instance password");
      await password.fill("seven77");
      await staysDisabled(page, "a password of 7 characters");
      await password.fill("eight888");
      await becomesEnabled(page, "a password of 8 characters");
      await page.getByText("My team", { exact: true }).click();
      await staysDisabled(page, "My team without an account");
      await page.getByText("Just me", { exact: true }).click();
      await page.getByText("No", { exact: true }).click();
      await becomesEnabled(page, "Just me without a password");
      await forward(page).click();

      await dataHandling(page, url, "LM Studio");
      // An empty survey just skips.
      assert.equal(await isEnabled(page), true);
      await forward(page).click();
      await createWorkspace(page, url, app, "Solo Shelf");
      assert.equal(app.deps.settings.requiresAuth, false, "no password was set");
      assert.equal(app.deps.settings.label(LABELS.onboardingSurvey), undefined, "no survey was sent");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: onboarding, just me with a password: the wizard goes on with the stored token",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await createTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await startWizard(page, url);
      await chooseGenericOpenAi(page, llm.baseURL);

      await atStep(page, url, "user-setup", "User Setup");
      assert.equal(app.deps.settings.value("LLMProvider"), "generic-openai");
      await page.getByText("Just me", { exact: true }).click();
      await page.getByText("Yes", { exact: true }).click();
      await page.getByText("Passwords must be at least 8 characters.", { exact: false }).waitFor();
      await page.getByText("It's important to save this password because there is no recovery method.", {
        exact: false,
      }).waitFor();
      await page.getByLabel("Instance password").fill("instance-secret");
      await becomesEnabled(page, "a password of 15 characters");
      await forward(page).click();

      await atStep(page, url, "data-handling", "Data Handling & Privacy");
      assert.equal(app.deps.settings.requiresAuth, true, "the instance now asks for the password");
      assert.ok(await stored(page, "lectern_authToken"), "the returned token is stored");
      await dataHandling(page, url, "Generic OpenAI");

      // The survey goes to the server with the stored token; the local flag shows the thank-you afterwards.
      await page.getByLabel("What's your email?").fill("me@example.com");
      await page.getByText("For my personal use", { exact: true }).click();
      await page.getByLabel(/Any comments\?/).fill("Lovely.");
      await forward(page).click();
      await atStep(page, url, "create-workspace", "Create your first workspace");
      const survey = JSON.parse(app.deps.settings.label(LABELS.onboardingSurvey) ?? "{}");
      assert.equal(survey.email, "me@example.com");
      assert.equal(survey.useCase, "personal");
      assert.equal(survey.comment, "Lovely.");
      assert.equal(await stored(page, "lectern_questionnaire_completed"), "true");
      await backArrow(page).click();
      await atStep(page, url, "survey", "Welcome");
      await page.getByText("Thank you for your feedback!").waitFor();
      await forward(page).click();

      await createWorkspace(page, url, app, "Private Desk");
      assert.equal(await page.evaluate(() => document.documentElement.dataset.auth), "ok");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: onboarding, my team: the first admin saves the recovery codes, then the wizard goes on",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await createTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await startWizard(page, url);
      await chooseGenericOpenAi(page, llm.baseURL);

      await atStep(page, url, "user-setup", "User Setup");
      await page.getByText("My team", { exact: true }).click();
      await page.getByText(
        "By default, you will be the only admin. Once onboarding is completed you can create and invite " +
          "others to be users or admins. Do not lose your password as only admins can reset passwords.",
      ).waitFor();
      const username = page.getByLabel("Admin account username");
      const password = page.getByLabel("Admin account password");
      await username.fill("admin");
      await password.fill("team-password");
      await staysDisabled(page, "a username of 5 characters");
      await username.fill("Admin 1");
      await staysDisabled(page, "a username with capitals and a space");
      // The password first: the arrow reads each field's value 500 ms after its last change, and with the username
      // fixed first it would be enabled for the moment between the two (admin1 with team-password), a moment a
      // loaded machine's late timer can stretch past staysDisabled's wait.
      await password.fill("seven77");
      await username.fill("admin1");
      await staysDisabled(page, "a password of 7 characters");
      await password.fill("team-password");
      await becomesEnabled(page, "a username of 6 and a password of 13 characters");
      await forward(page).click();

      const dialog = page.getByRole("dialog", { name: "Recovery codes" });
      await dialog.waitFor();
      assert.equal(await stored(page, "lectern_authToken"), null, "nothing is stored before the codes");
      const close = dialog.getByRole("button", { name: "Close", exact: true });
      assert.equal(await close.isDisabled(), true, "Close waits for the download");
      const download = page.waitForEvent("download");
      await dialog.getByRole("link", { name: "Download" }).click();
      assert.equal((await download).suggestedFilename(), "recovery_codes.txt");
      await close.click();

      await atStep(page, url, "data-handling", "Data Handling & Privacy");
      assert.equal(app.deps.settings.multiUserMode, true);
      assert.ok(await stored(page, "lectern_authToken"));
      assert.equal(JSON.parse((await stored(page, "lectern_user")) ?? "{}").username, "admin1");
      await dataHandling(page, url, "Generic OpenAI");

      // An address the server refuses: the toast shows, and the wizard still moves on.
      await page.getByLabel("What's your email?").fill("me@localhost");
      await page.getByText("For work", { exact: true }).click();
      await forward(page).click();
      await page.getByText(/^The survey could not be sent: .+/).waitFor();
      await atStep(page, url, "create-workspace", "Create your first workspace");
      assert.equal(app.deps.settings.label(LABELS.onboardingSurvey), undefined);
      assert.equal(await stored(page, "lectern_questionnaire_completed"), null);

      await createWorkspace(page, url, app, "Team Room");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: LLM preference: a saved key stays masked, models are listed with it, auto-detect finds LM Studio",
  ...browserTestOptions,
  async fn() {
    await using openai = startFakeOpenAi({
      apiKey: "sk-test-key",
      models: ["gpt-4o", "gpt-4o-mini", "dall-e-3"],
    });
    await using app = await createTestApp({ providerDeps: { endpoints: { openai: openai.baseURL } } });
    const saved = await app.json("/api/system/update-env", {
      json: {
        LLMProvider: "openai",
        OpenAiKey: "sk-test-key",
        OpenAiModelPref: "gpt-4o",
        EmbeddingEngine: "native",
        VectorDB: "lancedb",
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      const lookups: Record<string, unknown>[] = [];
      const saves: Record<string, unknown>[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/api/system/custom-models")) lookups.push(request.postDataJSON());
        if (request.url().endsWith("/api/system/update-env")) saves.push(request.postDataJSON());
      });
      // Stands in for an LM Studio on 127.0.0.1:1234; the other candidates are really asked (and fail).
      await page.route("**/api/system/custom-models", async (route) => {
        const body = route.request().postDataJSON() as { basePath?: string };
        if (body.basePath !== "http://127.0.0.1:1234/v1") return await route.fallback();
        await route.fulfill({
          json: {
            models: [{ id: "found-model", name: "found-model", organization: "lmstudio" }],
            error: null,
          },
        });
      });
      await page.goto(`${url}/settings/llm-preference`);
      await hydrated(page);

      assert.equal(await page.getByRole("radio", { name: /OpenAI/ }).first().isChecked(), true);
      const key = page.locator('input[name="OpenAiKey"]');
      assert.equal(await key.inputValue(), "*".repeat(20), "the saved key shows as 20 asterisks");
      const model = page.locator('select[name="OpenAiModelPref"]');
      await model.locator("option", { hasText: "gpt-4o-mini" }).waitFor({ state: "attached" });
      assert.equal(await model.inputValue(), "gpt-4o", "the saved model is preselected");
      assert.deepEqual(await model.locator("option").allTextContents(), ["gpt-4o", "gpt-4o-mini"]);
      assert.equal(await model.locator("optgroup").getAttribute("label"), "OpenAi");
      assert.deepEqual(lookups[0], { provider: "openai", apiKey: true }, "the stored key is used");
      assert.equal(
        await page.getByText("Using a locally hosted LLM is experimental. Use with caution.").count(),
        0,
      );

      await model.selectOption("gpt-4o-mini");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("LLM preferences saved.").waitFor();
      assert.equal(saves.length, 1);
      assert.equal("OpenAiKey" in saves[0], false, "the unchanged mask is not sent back");
      assert.equal(app.deps.settings.value("OpenAiModelPref"), "gpt-4o-mini");
      assert.equal(app.deps.settings.value("OpenAiKey"), "sk-test-key");

      await key.fill("");
      await page.locator('select[name="OpenAiModelPref"] option', { hasText: "-- waiting for API key --" })
        .waitFor({ state: "attached" });

      // LM Studio has no saved base path: auto-detect finds it and hides the manual input behind a toggle.
      await chooseProvider(page, "studio", "LM Studio");
      await page.getByText("Provider endpoint discovered automatically.").waitFor({ timeout: 10_000 });
      await page.getByText("Using a locally hosted LLM is experimental. Use with caution.").waitFor();
      assert.equal(
        await page.getByRole("link", { name: "Manage embedding →" }).getAttribute("href"),
        "/settings/embedding-preference",
      );
      const basePath = page.locator('input[name="LMStudioBasePath"]');
      assert.equal(await basePath.count(), 0, "the manual endpoint input is hidden");
      const lmModel = page.locator('select[name="LMStudioModelPref"]');
      await lmModel.locator("option", { hasText: "found-model" }).waitFor({ state: "attached" });
      assert.equal(await lmModel.inputValue(), "found-model");
      await page.getByRole("button", { name: "Show Manual Endpoint Input" }).click();
      assert.equal(await basePath.inputValue(), "http://127.0.0.1:1234/v1");
      await page.getByRole("button", { name: "Hide Manual Endpoint Input" }).click();
      assert.equal(await basePath.count(), 0);
      const candidates = lookups.filter((body) => body.provider === "lmstudio").map((body) => body.basePath);
      for (
        const candidate of [
          "http://localhost:1234/v1",
          "http://127.0.0.1:1234/v1",
          "http://host.docker.internal:1234/v1",
        ]
      ) {
        assert.ok(candidates.includes(candidate), `${candidate} was tried`);
      }
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: LLM preference: a manager sees the form read-only; nothing is looked up or detected",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    await using app = await createTestApp();
    await app.json("/api/system/update-env", {
      json: {
        LLMProvider: "lmstudio",
        LMStudioBasePath: llm.baseURL,
        LMStudioModelPref: "fake-model",
        LMStudioTokenLimit: "4096",
        EmbeddingEngine: "native",
        VectorDB: "lancedb",
      },
    });
    const admin = { username: "admin", password: "admin-password" };
    await app.json("/api/system/enable-multi-user", { json: admin });
    const adminToken = (await app.json<{ token: string }>("/api/request-token", { json: admin })).body.token;
    const manager = { username: "manager", password: "manager-password" };
    const created = await app.json("/api/admin/users/new", {
      json: { ...manager, role: "manager" },
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const session = await app.json<{ token: string; user: unknown }>("/api/request-token", { json: manager });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await signIn(page, url, session.body);
      const lookups: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/system/custom-models")) lookups.push(request.url());
      });
      await page.goto(`${url}/settings/llm-preference`);
      await hydrated(page);
      await page.getByText("Only an admin can change these settings.").waitFor();
      assert.equal(await page.getByRole("radio", { name: /LM Studio/ }).isChecked(), true);
      const model = page.locator('select[name="LMStudioModelPref"]');
      assert.equal(await model.isDisabled(), true);
      // A manager sees the saved values (secrets only as set or not) but can change nothing, and a read-only
      // page neither looks up models nor detects endpoints.
      assert.equal(await model.inputValue(), "fake-model");
      const basePath = page.locator('input[name="LMStudioBasePath"]');
      assert.equal(await basePath.isDisabled(), true);
      assert.equal(await basePath.inputValue(), llm.baseURL);
      assert.equal(await page.getByRole("button", { name: "Save" }).count(), 0);
      await page.waitForTimeout(SETTLED_MS);
      assert.deepEqual(lookups, [], "a read-only page asks for no model list and detects nothing");
      assert.equal(await page.getByText("Couldn't automatically discover", { exact: false }).count(), 0);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});
