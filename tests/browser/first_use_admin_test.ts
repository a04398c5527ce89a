import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { configuredTestApp, createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { invites } from "../../db/schema.ts";
import { DEFAULT_REFUSAL, DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import { signIn } from "./sessions.ts";
import {
  browserTestOptions,
  hydrated,
  launchChromium,
  pageErrors,
  SCREENSHOTS,
  watchErrors,
} from "./chromium.ts";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Screenshots of the page as it is now, in light and in dark, as test-results/first-use-<name>-<scheme>.png. */
async function screenshots(page: Page, name: string) {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const path = fileURLToPath(new URL(`first-use-${name}-${colorScheme}.png`, SCREENSHOTS));
    await page.screenshot({ path });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Opens Settings → Users as the admin and waits for the row of the account `member`. */
async function openUsers(page: Page, url: string, admin: Session) {
  await signIn(page, url, admin);
  await page.goto(`${url}/settings/users`);
  await hydrated(page);
  const row = page.getByRole("row").filter({ hasText: "member" });
  await row.getByRole("button", { name: "Reset password" }).waitFor();
  return row;
}

Deno.test({
  name: "browser: Settings → Users offers no login link while simple SSO is off",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    const admin = await multiUserInstance(app);
    await addUser(app, admin, "member", "default");
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP });
      const errors = watchErrors(page);
      const row = await openUsers(page, url, admin);
      assert.equal(await row.getByRole("button", { name: "Login link" }).count(), 0);
      assert.equal(await page.getByRole("button", { name: "Login link" }).count(), 0, "on no row");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: with simple SSO on, Settings → Users issues a login link for another account",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1" } });
    const admin = await multiUserInstance(app);
    await addUser(app, admin, "member", "default");
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP });
      const errors = watchErrors(page);
      const row = await openUsers(page, url, admin);
      await row.getByRole("button", { name: "Login link" }).click();
      const dialog = page.getByRole("dialog", { name: "Login link for member" });
      const link = dialog.getByLabel("Single-use login link");
      await link.waitFor();
      assert.match(await link.inputValue(), new RegExp(`^${url}/sso/simple\\?token=lectern-tat-`));
      const adminRow = page.getByRole("row").filter({ hasText: "you" });
      assert.equal(await adminRow.getByRole("button", { name: "Login link" }).count(), 0, "none for oneself");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: enabling multi-user mode asks first, then the login page says why; recovery codes stay on one line",
  ...browserTestOptions,
  async fn() {
    // An open instance without a language model sends its pages to onboarding.
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: PHONE });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/security`);
      await hydrated(page);
      await page.getByLabel("Admin username").fill("firstadmin");
      await page.getByLabel("Admin password").fill("first-admin-password");
      const enable = page.getByRole("button", { name: "Enable multi-user mode" });
      await enable.click();

      const dialog = page.getByRole("dialog", { name: "Enable multi-user mode?" });
      await dialog.waitFor();
      const message = await dialog.textContent() ?? "";
      assert.match(message, /"firstadmin" becomes the first admin/);
      assert.match(message, /cannot be undone/);
      await screenshots(page, "enable-multi-user-phone");
      await page.setViewportSize(DESKTOP);
      await screenshots(page, "enable-multi-user-desktop");
      await page.setViewportSize(PHONE);

      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      const mode = await app.json<{ multiUserMode: boolean }>("/api/system/multi-user-mode");
      assert.equal(mode.body.multiUserMode, false, "Cancel changes nothing");
      assert.equal(app.deps.settings.multiUserMode, false);
      assert.equal(page.url(), `${url}/settings/security`);

      await enable.click();
      await dialog.getByRole("button", { name: "Enable multi-user mode" }).click();
      await page.waitForURL(`${url}/login?reason=multi-user-enabled`);
      await hydrated(page);
      await page.getByText("Multi-user mode is on. Sign in with the admin account you just created.")
        .waitFor();
      assert.equal(app.deps.settings.multiUserMode, true);
      await screenshots(page, "login-after-multi-user-phone");

      await page.getByLabel("Username", { exact: true }).fill("firstadmin");
      await page.getByLabel("Password", { exact: true }).fill("first-admin-password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      const codes = page.getByRole("dialog", { name: "Recovery codes" });
      await codes.waitFor();
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        const lines = await page.locator(".recovery-codes li").evaluateAll((items) =>
          items.map((item) => {
            const style = getComputedStyle(item);
            const lineHeight = style.lineHeight === "normal"
              ? parseFloat(style.fontSize) * 1.2
              : parseFloat(style.lineHeight);
            const list = item.parentElement!;
            return {
              code: item.textContent,
              lines: item.getBoundingClientRect().height / lineHeight,
              clipped: list.scrollWidth > list.clientWidth,
            };
          })
        );
        assert.equal(lines.length, 4);
        for (const line of lines) {
          assert.ok(
            line.lines < 1.5,
            `${line.code} takes ${line.lines.toFixed(2)} lines at ${viewport.width} px`,
          );
          assert.equal(line.clipped, false, `${line.code} is whole at ${viewport.width} px`);
        }
      }
      await page.setViewportSize(PHONE);
      await screenshots(page, "recovery-codes-phone");
      await page.setViewportSize(DESKTOP);
      await screenshots(page, "recovery-codes-desktop");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

/** Where the chosen provider sits in its list box, and whether any row still shows a text logo. */
async function pickerState(page: Page) {
  return await page.locator(".provider-list").first().evaluate((list) => {
    const box = list.getBoundingClientRect();
    const row = list.querySelector(".provider-option.selected");
    const rect = row?.getBoundingClientRect();
    const logos = [...list.querySelectorAll(".provider-logo")];
    return {
      selected: row?.querySelector(".provider-name")?.textContent ?? null,
      checked: row?.querySelector("input")?.checked ?? false,
      inView: rect !== undefined && rect.top >= box.top - 0.5 && rect.bottom <= box.bottom + 0.5,
      rows: logos.length,
      textLogos: logos.filter((logo) => (logo.textContent ?? "").trim() !== "").length,
      svgLogos: logos.filter((logo) => logo.querySelector("svg") !== null).length,
      pageScroll: globalThis.scrollY,
    };
  });
}

Deno.test({
  name: "browser: provider lists open on the saved provider, in view, and show an icon of its kind",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    // Generic OpenAI is the last of the language models and of the embedders the lists offer.
    await app.json("/api/system/update-env", {
      json: genericOpenAiSettings("http://127.0.0.1:9/v1", {
        EmbeddingEngine: "generic-openai",
        EmbeddingBasePath: "http://127.0.0.1:9/v1",
        EmbeddingModelPref: "fake-embedder",
      }),
    });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP });
      const errors = watchErrors(page);
      const lists = [
        { path: "/settings/llm-preference", name: "llm", selected: "Generic OpenAI" },
        { path: "/onboarding/llm-preference", name: "onboarding-llm", selected: "Generic OpenAI" },
        { path: "/settings/embedding-preference", name: "embedder", selected: "Generic OpenAI" },
        { path: "/settings/vector-database", name: "vector-database", selected: "LanceDB" },
      ];
      for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
        await page.setViewportSize(viewport);
        for (const list of lists) {
          await page.goto(`${url}${list.path}`);
          await hydrated(page);
          await page.locator(".provider-option.selected").first().waitFor();
          const state = await pickerState(page);
          const where = `${list.path} at ${size}`;
          assert.equal(state.selected, list.selected, where);
          assert.equal(state.checked, true, `${where}: the saved provider is the checked radio`);
          assert.equal(state.inView, true, `${where}: the saved provider is inside the visible list`);
          assert.equal(state.pageScroll, 0, `${where}: only the list scrolls, not the page`);
          assert.equal(state.textLogos, 0, `${where}: no text stands in for an icon`);
          assert.equal(state.svgLogos, state.rows, `${where}: every row has an svg icon`);
          if (list.name !== "onboarding-llm") await screenshots(page, `providers-${list.name}-${size}`);
        }
      }
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: the chat settings show the default prompt as a placeholder and save it untouched as none",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Atlas" } });
    type Row = { openAiPrompt: string | null; queryRefusalResponse: string | null };
    const stored = async () => (await app.json<{ workspace: Row }>("/api/workspace/atlas")).body.workspace;
    // A new workspace is stored with the default prompt's text.
    assert.equal((await stored()).openAiPrompt, DEFAULT_SYSTEM_PROMPT);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP });
      const errors = watchErrors(page);
      const open = async () => {
        await page.goto(`${url}/workspace/atlas/settings/chat-settings`);
        await hydrated(page);
        await prompt.waitFor();
      };
      const prompt = page.getByLabel("Prompt", { exact: true });
      const refusal = page.getByLabel("Query mode refusal response");
      // Waits for the server's answer and for the form to take it in (Save reads "Saving..." until then); an
      // earlier save's toast may still be showing, so the toast cannot tell.
      const saveButton = page.getByRole("button", { name: "Save", exact: true });
      const save = async () => {
        const answer = page.waitForResponse((response) =>
          response.url().endsWith("/api/workspace/atlas/update")
        );
        await saveButton.click();
        assert.equal((await answer).status(), 200);
        await saveButton.waitFor();
      };
      await open();

      for (const [field, builtIn] of [[prompt, DEFAULT_SYSTEM_PROMPT], [refusal, DEFAULT_REFUSAL]] as const) {
        assert.equal(await field.inputValue(), "", "no text of its own to show");
        assert.equal(await field.getAttribute("placeholder"), builtIn);
        const hintId = await field.getAttribute("aria-describedby");
        const hint = await page.locator(`[id="${hintId}"]`).textContent() ?? "";
        assert.ok(!hint.includes(builtIn), `the hint does not repeat the default: ${hint}`);
        assert.ok(hint.length < 120, `the hint stays short: ${hint}`);
      }
      await prompt.evaluate((field) => field.scrollIntoView({ block: "center" }));
      await screenshots(page, "chat-settings-desktop");
      await page.setViewportSize(PHONE);
      await prompt.evaluate((field) => field.scrollIntoView({ block: "center" }));
      await screenshots(page, "chat-settings-phone");
      await page.setViewportSize(DESKTOP);

      await save();
      const untouched = await stored();
      assert.equal(untouched.openAiPrompt, null, "saved untouched: no prompt of its own");
      assert.equal(untouched.queryRefusalResponse, null);

      await prompt.fill("Answer as a librarian would.");
      await refusal.fill("Atlas holds nothing on that.");
      await save();
      assert.equal((await stored()).openAiPrompt, "Answer as a librarian would.");
      await open();
      assert.equal(await prompt.inputValue(), "Answer as a librarian would.", "its own prompt shows as text");
      assert.equal(await refusal.inputValue(), "Atlas holds nothing on that.");

      await prompt.fill("");
      await refusal.fill("");
      await save();
      const row = await stored();
      assert.equal(row.openAiPrompt, null, "emptied: back to the default");
      assert.equal(row.queryRefusalResponse, null);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: with SIMPLE_SSO_NO_LOGIN, Settings → Invites offers no invitation the server would refuse",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1", SIMPLE_SSO_NO_LOGIN: "1" } });
    // Credential logins are off, so the admin's session is the one enabling multi-user mode answers with.
    const enabled = await app.json<Session>("/api/system/enable-multi-user", {
      json: { username: "admin", password: "admin-password" },
    });
    const admin = enabled.body;
    const refused = await app.json("/api/admin/invite/new", {
      ...bearer(admin.token),
      json: { workspaceIds: [] },
    });
    assert.equal(refused.status, 403, "the server refuses new invitations");
    // An invitation from before the operator turned credential logins off.
    await app.deps.db.insert(invites).values({ code: "older-invite-code", createdBy: admin.user.id });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP });
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      await page.goto(`${url}/settings/invites`);
      await hydrated(page);
      const row = page.getByRole("row").filter({ hasText: "older-invite-code" });
      await row.getByRole("button", { name: "Deactivate" }).waitFor();
      await page.getByText(/^Invitations are off: this instance signs people in only through single sign-on/)
        .waitFor();
      assert.equal(await page.getByRole("button", { name: "Create invite" }).count(), 0);
      assert.equal(
        await row.getByRole("button", { name: "Copy link" }).count(),
        0,
        "its link would be refused",
      );
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: after setting an instance password the login page says why the visitor is there",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: PHONE });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/security`);
      await hydrated(page);
      await page.getByRole("switch", { name: "Protect this instance with a password" }).check();
      await page.getByLabel("Password", { exact: true }).fill("correct horse");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.waitForURL(`${url}/login?reason=password-set`);
      await hydrated(page);
      await page.getByText("Password protection is on. Sign in with the password you just set.").waitFor();
      assert.equal(app.deps.settings.requiresAuth, true);
      await page.getByLabel("Password", { exact: true }).fill("correct horse");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(`${url}/`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: admin pages open with their menu entry in view, or named on a phone; invite codes keep one line",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    const admin = await multiUserInstance(app);
    const invite = await app.json<{ invite: { code: string } }>("/api/admin/invite/new", {
      ...bearer(admin.token),
      json: { workspaceIds: [] },
    });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: PHONE });
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      for (const [size, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
        await page.setViewportSize(viewport);
        for (const [path, title] of [["security", "Security"], ["invites", "Invites"], ["users", "Users"]]) {
          await page.goto(`${url}/settings/${path}`);
          await hydrated(page);
          if (size === "phone") {
            // Folded, the menu's one row names the page being shown.
            const current = page.locator(".settings-nav-toggle .settings-nav-current");
            assert.equal(await current.isVisible(), true, `${path} at ${size}: the menu names the page`);
            assert.equal(await current.textContent(), title);
            continue;
          }
          const entry = await page.locator(".settings-nav").evaluate((menu) => {
            const box = menu.getBoundingClientRect();
            const current = menu.querySelector('[aria-current="page"]')!.getBoundingClientRect();
            return {
              inView: current.top >= box.top && current.bottom <= box.bottom,
              page: globalThis.scrollY,
            };
          });
          assert.equal(entry.inView, true, `${path} at ${size}: the menu shows the page's own entry`);
          assert.equal(entry.page, 0, `${path} at ${size}: only the menu scrolls`);
        }
        const code = page.locator(".invite-code");
        await page.goto(`${url}/settings/invites`);
        await hydrated(page);
        await code.waitFor();
        assert.equal(await code.textContent(), invite.body.invite.code);
        const lines = await code.evaluate((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return range.getClientRects().length;
        });
        assert.equal(lines, 1, `the invite code keeps one line at ${size}`);
        await screenshots(page, `invites-${size}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: with password login off (simple SSO only), enabling multi-user mode keeps the new admin signed in",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1", SIMPLE_SSO_NO_LOGIN: "1" } });
    await app.json("/api/system/update-env", { json: genericOpenAiSettings("http://127.0.0.1:9/v1") });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: DESKTOP });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/security`);
      await hydrated(page);
      await page.getByLabel("Admin username").fill("ssoadmin");
      await page.getByLabel("Admin password").fill("sso-admin-password");
      await page.getByRole("button", { name: "Enable multi-user mode" }).click();
      const dialog = page.getByRole("dialog", { name: "Enable multi-user mode?" });
      await dialog.getByRole("button", { name: "Enable multi-user mode" }).click();
      // A login screen that refuses passwords would lock the admin out; the admin stays signed in instead.
      await page.waitForURL(`${url}/`);
      await hydrated(page);
      assert.equal(app.deps.settings.multiUserMode, true);
      await page.locator(".account-avatar").click();
      await page.locator(".account-menu-items").getByRole("button", { name: "Account" }).waitFor();
      await page.goto(`${url}/settings/users`);
      await hydrated(page);
      await page.getByRole("cell", { name: "ssoadmin" }).first().waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
