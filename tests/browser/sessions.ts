import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { hydrated, watchErrors } from "./chromium.ts";
import type { Session } from "../../server/testing/accounts.ts";

/**
 * Signs a page's browser context in as an account, the way the login screen leaves the browser: the token, the
 * user and a fresh auth timestamp in local storage (client/lib/storage.ts). A test then starts signed in without
 * the login form and its recovery codes (auth_test.ts covers those); a later sign-out clears it as usual.
 */
export async function signIn(
  page: Page,
  url: string,
  session: Pick<Session, "token"> & { user: unknown },
): Promise<void> {
  // A blank page of the app's origin reaches its storage; it asks for no favicon the app does not have.
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
  }, { token: session.token, user: session.user });
}

/**
 * An admin-only screen seen by a manager, who passes its page guard: the screen shows `sentence` and no control,
 * the settings menu does not offer it (`menuName`), and the page makes no call the manager is refused.
 */
export async function assertAdminOnlyScreen(
  browser: Browser,
  url: string,
  manager: Pick<Session, "token"> & { user: unknown },
  screen: { path: string; sentence: string; menuName: string },
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    const refusals: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) refusals.push(`${response.status()} ${response.url()}`);
    });
    await signIn(page, url, manager);
    await page.goto(`${url}${screen.path}`);
    await hydrated(page);
    await page.getByText(screen.sentence).waitFor();
    const content = page.locator(".settings-content");
    assert.equal(await content.locator("button, input, a[href], table").count(), 0, "no controls");
    assert.equal(
      await page.locator(".settings-nav").getByRole("link", { name: screen.menuName }).isVisible(),
      false,
      "the menu does not offer the page to a manager",
    );
    await page.waitForLoadState("networkidle");
    assert.deepEqual(refusals, [], "no call a manager is refused");
    assert.deepEqual(errors, [], "manager: console errors");
  } finally {
    await context.close();
  }
}
