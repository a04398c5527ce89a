import assert from "node:assert/strict";
import { createTestApp } from "../../server/testing/test_app.ts";
import { bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { startFakeOidc } from "../../server/testing/fake_oidc.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

Deno.test({
  name: "browser: an admin sets up OpenID Connect, and a person logs in through the provider's redirect",
  ...browserTestOptions,
  async fn() {
    await using fake = await startFakeOidc({
      identity: { sub: "kc-1", claims: { preferred_username: "dana", groups: ["team"] } },
    });
    await using app = await createTestApp();
    const admin = await multiUserInstance(app);
    const url = app.listen();
    const browser = await launchChromium();
    try {
      // The admin fills the card on Settings → Security.
      const adminPage = await browser.newPage({ viewport: { width: 390, height: 800 } });
      const errors = watchErrors(adminPage);
      await signIn(adminPage, url, admin);
      await adminPage.goto(`${url}/settings/security`);
      await hydrated(adminPage);
      const card = adminPage.getByTestId("oidc-settings");
      await card.getByRole("switch", { name: "Allow login with OpenID Connect" }).check();
      await card.getByLabel("Issuer URL").fill(fake.issuer);
      await card.getByLabel("Client ID").fill(fake.clientId);
      await card.getByLabel("Client secret").fill(fake.clientSecret);
      await card.getByLabel("Provider name on the login button").fill("Team Keycloak");
      await card.getByLabel("Groups claim").fill("groups");
      await card.getByLabel("Groups to roles").fill("team = nobody");
      await card.getByText("Line 1: the role must be one of admin, manager, default.").waitFor();
      await card.getByLabel("Groups to roles").fill("team = manager");
      await card.getByRole("button", { name: "Save" }).click();
      await adminPage.getByText("Login settings saved.").waitFor();
      assert.deepEqual(errors, []);

      // A visitor logs in with the provider.
      const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${url}/login`);
      await hydrated(page);
      await page.getByRole("link", { name: "Log in with Team Keycloak" }).click();
      await page.waitForURL((address) => address.pathname === "/" && address.host === new URL(url).host);
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("lectern_user") ?? "null"));
      assert.equal(stored?.username, "dana");
      assert.equal(stored?.role, "manager");

      // A refused answer (an ID token for another client) says why, with a way back.
      fake.tamper = { audience: "another-client" };
      await page.goto(`${url}/login?nt=1`);
      await hydrated(page);
      await page.getByRole("link", { name: "Log in with Team Keycloak" }).click();
      await page.getByText("The identity provider's answer could not be verified.").waitFor();
      await page.getByRole("link", { name: "Back to the login page" }).waitFor();
      await context.close();
    } finally {
      await browser.close();
    }
    const users = await app.json<{ users: { username: string }[] }>("/api/admin/users", bearer(admin.token));
    assert.deepEqual(users.body.users.map((user) => user.username).sort(), ["admin", "dana"]);
  },
});
