import type { Page } from "playwright-core";
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
