import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestApp } from "../../server/testing/test_app.ts";
import { addUser, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

/**
 * Stores a session the way the login screen does, so a test starts signed in without going through the
 * login form and its recovery codes (auth_test.ts covers those).
 */
async function storeSession(page: Page, url: string, session: Session) {
  // A blank page of the app's origin, where the browser asks for no favicon the app does not have.
  const blank = `${url}/test-blank`;
  await page.route(
    blank,
    (route) =>
      route.fulfill({ contentType: "text/html", body: '<!doctype html><link rel="icon" href="data:,">' }),
  );
  await page.goto(blank);
  await page.unroute(blank);
  await page.evaluate(({ token, user }) => {
    globalThis.localStorage.setItem("lectern_authToken", token);
    globalThis.localStorage.setItem("lectern_user", JSON.stringify(user));
    globalThis.localStorage.setItem("lectern_authTimestamp", String(Date.now()));
  }, session);
}

/** Opens Settings → Users as the admin and waits for the row of the account `member`. */
async function openUsers(page: Page, url: string, admin: Session) {
  await storeSession(page, url, admin);
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
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
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
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
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
