import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, pageErrors, watchErrors } from "./chromium.ts";

const ADMIN = { username: "admin", password: "admin-password" };
const MEMBER = { username: "member", password: "member-password" };

const stored = (page: Page, key: string) =>
  page.evaluate((name) => globalThis.localStorage.getItem(name), key);

async function enableMultiUser(app: TestApp) {
  const answer = await app.json("/api/system/enable-multi-user", { json: ADMIN });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** Fills and submits the login form; `username` only in multi-user mode. */
async function signIn(page: Page, credentials: { username?: string; password: string }) {
  if (credentials.username) await page.getByLabel("Username", { exact: true }).fill(credentials.username);
  await page.getByLabel("Password", { exact: true }).fill(credentials.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Downloads the codes of the recovery-codes modal, closes it, and returns them. */
async function saveRecoveryCodes(page: Page): Promise<string[]> {
  const dialog = page.getByRole("dialog", { name: "Recovery codes" });
  await dialog.waitFor();
  const codes = (await dialog.getByRole("listitem").allTextContents()).map((code) => code.trim());
  const close = dialog.getByRole("button", { name: "Close", exact: true });
  assert.equal(await close.isDisabled(), true, "Close waits for the download");
  const download = page.waitForEvent("download");
  await dialog.getByRole("link", { name: "Download" }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), "recovery_codes.txt");
  const text = await Deno.readTextFile(await file.path());
  for (const code of codes) assert.ok(text.includes(code), `the file holds ${code}`);
  await close.click();
  return codes;
}

/** After a login: saves the recovery codes when the modal shows (a first login), then waits for home. */
async function finishLogin(page: Page, url: string) {
  const dialog = page.getByRole("dialog", { name: "Recovery codes" });
  const first = await Promise.race([
    dialog.waitFor({ timeout: 15_000 }).then(() => "codes", () => "none"),
    page.waitForURL(`${url}/`, { timeout: 15_000 }).then(() => "home", () => "none"),
  ]);
  if (first === "codes") await saveRecoveryCodes(page);
  await page.waitForURL(`${url}/`);
  await hydrated(page);
}

Deno.test({
  name: "browser: an open instance without a language model sends guarded pages to onboarding",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/settings/llm-preference`);
      await page.waitForURL(`${url}/onboarding`);
      await hydrated(page);
      await page.goto(`${url}/login`);
      await page.waitForURL(`${url}/onboarding`);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: a password-protected single-user instance sends visitors to the login; the right password lets in",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    const set = await app.json("/api/system/update-password", {
      json: { usePassword: true, newPassword: "correct horse" },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/`);
      await page.waitForURL(`${url}/login`);
      await hydrated(page);
      assert.equal(
        await page.getByLabel("Username").count(),
        0,
        "single-user mode asks for the password only",
      );
      await signIn(page, { password: "wrong password" });
      await page.getByText("Error: [003] Invalid password provided").waitFor();
      assert.equal(await stored(page, "lectern_authToken"), null);

      await signIn(page, { password: "correct horse" });
      await page.waitForURL(`${url}/`);
      await hydrated(page);
      await page.locator("h1").first().waitFor();
      assert.ok(await stored(page, "lectern_authToken"), "the token is stored");
      assert.equal(await page.evaluate(() => document.documentElement.dataset.auth), "ok");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: an admin's first login shows the recovery codes; the session is stored once they are saved",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    await enableMultiUser(app);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/`);
      await page.waitForURL(`${url}/login`);
      await hydrated(page);
      await signIn(page, ADMIN);

      const dialog = page.getByRole("dialog", { name: "Recovery codes" });
      await dialog.waitFor();
      assert.equal(await dialog.getByRole("listitem").count(), 4);
      assert.equal(
        await stored(page, "lectern_authToken"),
        null,
        "nothing is stored before the codes are saved",
      );
      await saveRecoveryCodes(page);
      await page.waitForURL(`${url}/`);
      await hydrated(page);
      assert.ok(await stored(page, "lectern_authToken"));
      assert.equal(JSON.parse((await stored(page, "lectern_user")) ?? "{}").username, "admin");

      // A session last checked more than 5 minutes ago is checked again, and its timestamp renewed.
      await page.evaluate(() => globalThis.localStorage.setItem("lectern_authTimestamp", "0"));
      await page.reload();
      await hydrated(page);
      assert.equal(page.url(), `${url}/`);
      assert.ok(Number(await stored(page, "lectern_authTimestamp")) > 0);

      const avatar = page.getByRole("button", { name: "Account menu" });
      assert.equal((await avatar.textContent())?.trim(), "ad", "the first two letters of the username");
      await avatar.click();
      await page.getByRole("button", { name: "Account", exact: true }).click();
      const account = page.getByRole("dialog", { name: "Account" });
      assert.equal(await account.getByLabel("Username").inputValue(), "admin");
      await account.getByRole("button", { name: "Cancel" }).click();

      await avatar.click();
      // No support address is set, so the menu offers none (account_menu_test.ts covers one that is).
      await page.getByRole("button", { name: "Sign out" }).waitFor();
      assert.equal(await page.getByRole("link", { name: "Support" }).count(), 0);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${url}/login`);
      await hydrated(page);
      assert.equal(await stored(page, "lectern_authToken"), null);
      assert.equal(await stored(page, "lectern_user"), null);
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: a default user who opens an admin-or-manager settings page lands on home",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    await enableMultiUser(app);
    const admin = await app.json<{ token: string }>("/api/request-token", { json: ADMIN });
    assert.equal(admin.status, 200, JSON.stringify(admin.body));
    const created = await app.json("/api/admin/users/new", {
      json: { ...MEMBER, role: "default" },
      headers: { Authorization: `Bearer ${admin.body.token}` },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/login`);
      await hydrated(page);
      await signIn(page, MEMBER);
      await finishLogin(page, url);
      assert.equal(JSON.parse((await stored(page, "lectern_user")) ?? "{}").role, "default");

      await page.goto(`${url}/settings/llm-preference`);
      await page.waitForURL(`${url}/`);
      await hydrated(page);
      await page.getByText("You have not been added to a workspace yet.", { exact: false }).waitFor();
      assert.equal(
        await page.getByRole("button", { name: "New Workspace" }).count(),
        0,
        "no controls it may not use",
      );
      assert.equal(await page.locator("nav.sidebar").getByRole("link", { name: "Settings" }).count(), 0);
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("button", { name: "Account", exact: true }).waitFor();

      // A token the server refuses, once it is checked again, is forgotten and the login shows.
      await page.evaluate(() => {
        globalThis.localStorage.setItem("lectern_authToken", "not-a-token");
        globalThis.localStorage.setItem("lectern_authTimestamp", "0");
      });
      await page.goto(`${url}/`);
      await page.waitForURL(`${url}/login`);
      await hydrated(page);
      assert.equal(await stored(page, "lectern_user"), null);
      assert.equal(await stored(page, "lectern_authToken"), null);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: forgot password: two recovery codes, a new password, then a login with it",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    await enableMultiUser(app);
    const first = await app.json<{ recoveryCodes?: string[] }>("/api/request-token", { json: ADMIN });
    const codes = first.body.recoveryCodes ?? [];
    assert.equal(codes.length, 4, JSON.stringify(first.body));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/login`);
      await hydrated(page);
      await page.getByRole("button", { name: "Forgot password?" }).click();
      await page.getByLabel("Username", { exact: true }).fill(ADMIN.username);
      await page.getByLabel("Recovery code 1").fill(codes[0]);
      await page.getByLabel("Recovery code 2").fill(codes[2]);
      await page.getByRole("button", { name: "Recover account" }).click();

      await page.getByRole("heading", { name: "Set a new password" }).waitFor();
      assert.ok(await stored(page, "lectern_resetToken"), "the reset token is kept for the reset form");
      await page.getByLabel("New password").fill("a-brand-new-password");
      await page.getByLabel("Confirm password").fill("a-brand-new-password");
      await page.getByRole("button", { name: "Reset password" }).click();
      await page.getByText("Password reset successful").waitFor();
      assert.equal(await stored(page, "lectern_resetToken"), null);

      await signIn(page, { username: ADMIN.username, password: ADMIN.password });
      await page.getByText(/^Error: /).waitFor();
      await signIn(page, { username: ADMIN.username, password: "a-brand-new-password" });
      await finishLogin(page, url);
      assert.equal(JSON.parse((await stored(page, "lectern_user")) ?? "{}").username, "admin");
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: onboarding's team setup shows the first admin's recovery codes before storing the session",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/onboarding/user-setup`);
      await hydrated(page);
      await page.getByText("My team", { exact: true }).click();
      await page.getByLabel("Admin account username").fill("teamadmin");
      await page.getByLabel("Admin account password").fill("team-password");
      const next = page.getByRole("button", { name: "Continue" });
      await page.waitForFunction(() => {
        const button = document.querySelector<HTMLButtonElement>('button[aria-label="Continue"]');
        return button !== null && !button.disabled;
      });
      await next.click();
      const codes = await saveRecoveryCodes(page);
      assert.equal(codes.length, 4);
      await page.waitForURL(`${url}/onboarding/data-handling`);
      assert.ok(await stored(page, "lectern_authToken"), "the session is stored after the codes were saved");
      assert.equal(app.deps.settings.multiUserMode, true);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: accepting an invitation creates the account; the login page then says why the visitor is there",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp();
    await enableMultiUser(app);
    const admin = await app.json<{ token: string }>("/api/request-token", { json: ADMIN });
    const invite = await app.json<{ invite: { code: string } }>("/api/admin/invite/new", {
      headers: { Authorization: `Bearer ${admin.body.token}` },
      json: { workspaceIds: [] },
    });
    assert.equal(invite.status, 200, JSON.stringify(invite.body));
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/accept-invite/${invite.body.invite.code}`);
      await hydrated(page);
      await page.getByLabel("Username", { exact: true }).fill("newcomer");
      await page.getByLabel("Password", { exact: true }).fill("newcomer-password");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(`${url}/login?reason=account-created`);
      await hydrated(page);
      await page.getByText("Your account is ready. Sign in with the username and password you just chose.")
        .waitFor();
      await signIn(page, { username: "newcomer", password: "newcomer-password" });
      await finishLogin(page, url);
      assert.equal(JSON.parse((await stored(page, "lectern_user")) ?? "{}").username, "newcomer");
      assert.deepEqual(pageErrors(errors), []);
    } finally {
      await browser.close();
    }
  },
});
