import type { Page } from "playwright-core";
import type { Session } from "../../server/testing/accounts.ts";

/**
 * Signs a page's browser context in as an account, the way a login leaves the browser: the token, the user and
 * a fresh auth timestamp in local storage (client/lib/storage.ts). It opens a same-origin address to reach
 * the storage; a later sign-out clears it as usual.
 */
export async function signIn(page: Page, url: string, session: Session): Promise<void> {
  await page.goto(`${url}/api/ping`);
  await page.evaluate(({ token, user }) => {
    globalThis.localStorage.setItem("lectern_authToken", token);
    globalThis.localStorage.setItem("lectern_user", JSON.stringify(user));
    globalThis.localStorage.setItem("lectern_authTimestamp", String(Date.now()));
  }, { token: session.token, user: session.user });
}
