import assert from "node:assert/strict";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { withKey } from "../../server/testing/api_keys.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { assertAdminOnlyScreen, signIn } from "./sessions.ts";

Deno.test({
  name:
    "browser: an admin generates a limited API key, sees and copies it once, finds it masked in the list and deletes it",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const manager = await addUser(app, admin, "morgan", "manager");
    for (const name of ["Atlas", "Borealis"]) {
      const made = await app.json("/api/workspace/new", { ...bearer(admin.token), json: { name } });
      assert.equal(made.status, 200);
    }
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      await page.goto(`${url}/settings/api-keys`);
      await hydrated(page);
      const menuLink = page.locator(".settings-nav").getByRole("link", { name: "Developer API" });
      assert.equal(await menuLink.isVisible(), true, "an admin is offered the page in the menu");
      await page.getByText("No API keys yet.").waitFor();
      const docsLink = page.getByRole("link", { name: "Read the API documentation" });
      assert.equal(await docsLink.getAttribute("href"), "/api/docs");

      await page.getByRole("button", { name: "Generate new API key" }).click();
      const dialog = page.getByRole("dialog", { name: "Generate new API key" });
      await dialog.getByLabel("Name").fill("CI bot");
      await dialog.getByText("Chosen workspaces").click();
      await dialog.getByRole("checkbox", { name: "Atlas" }).check();
      await dialog.getByRole("checkbox", { name: /^Documents/ }).check();
      await dialog.getByLabel("Rate limit (requests per minute)").fill("60");
      await page.screenshot({ path: new URL("api-keys-form.png", SCREENSHOTS).pathname });
      await dialog.getByRole("button", { name: "Generate key" }).click();

      const field = dialog.locator("#new-api-key");
      await field.waitFor();
      const key = await field.inputValue();
      assert.match(key, /\S{20,}/);
      await dialog.getByText("it will not be shown again").waitFor();
      await dialog.getByRole("button", { name: "Copy" }).click();
      assert.equal(
        await page.evaluate(() => navigator.clipboard.readText()),
        key,
        "the Copy button copied it",
      );
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: new URL("api-keys-new-key-dark.png", SCREENSHOTS).pathname });
      await page.emulateMedia({ colorScheme: "light" });
      // It is a working key, limited as chosen.
      assert.equal((await app.json("/api/v1/auth", withKey(key))).status, 200);
      const listed = await app.json<{ apiKeys: { secret: string; scope: string; permissions: string[] }[] }>(
        "/api/admin/api-keys",
        bearer(admin.token),
      );
      assert.equal(listed.body.apiKeys.length, 1);
      assert.equal(listed.body.apiKeys[0].scope, "workspaces");
      assert.deepEqual(listed.body.apiKeys[0].permissions, ["chat", "documents", "read"]);
      const masked = listed.body.apiKeys[0].secret;
      assert.notEqual(masked, key);

      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "hidden" });
      const row = page.locator(".api-keys-table tbody tr");
      await row.waitFor();
      assert.equal(await row.count(), 1);
      assert.equal(await row.locator(".api-key-secret").textContent(), masked, "the list shows it masked");
      const rowText = await row.innerText();
      for (
        const expected of [
          "CI bot",
          "Workspaces",
          "Atlas",
          "Chat, Documents, Read",
          "60 requests a minute",
          "admin",
        ]
      ) {
        assert.ok(rowText.includes(expected), `the row shows ${expected}: ${rowText}`);
      }
      assert.ok(!rowText.includes("Borealis"));
      const shown = await page.evaluate(() =>
        document.body.innerText +
        Array.from(document.querySelectorAll("input")).map((input) => input.value).join()
      );
      assert.ok(!shown.includes(key), "the whole key is gone once the dialog is closed");
      await page.getByRole("button", { name: "Generate new API key" }).click();
      assert.equal(await dialog.locator("#new-api-key").count(), 0, "a new dialog starts with the form");
      assert.equal(await dialog.getByLabel("Name").inputValue(), "");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });

      // On a phone the table becomes cards and nothing overflows the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= globalThis.innerWidth),
        "no horizontal scrolling at phone width",
      );
      await page.screenshot({ path: new URL("api-keys-phone.png", SCREENSHOTS).pathname, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });

      await row.getByRole("button", { name: "Delete the API key CI bot" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete API key" });
      await confirm.getByText("cannot be undone").waitFor();
      await confirm.getByRole("button", { name: "Delete key" }).click();
      await page.getByText("No API keys yet.").waitFor();
      assert.equal(await page.locator(".api-keys-table").count(), 0);
      assert.equal((await app.json("/api/v1/auth", withKey(key))).status, 403, "the deleted key is refused");
      assert.deepEqual(errors, [], "console errors");
      await context.close();

      // A manager may open the page (its guard) but not manage keys: one sentence, no controls, no menu entry.
      await assertAdminOnlyScreen(browser, url, manager, {
        path: "/settings/api-keys",
        sentence: "Only an admin manages API keys.",
        menuName: "Developer API",
      });
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: /api/docs shows the developer API's operations under the page CSP, with no console errors",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      const foreign: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith(url)) foreign.push(request.url());
      });
      const answer = await page.goto(`${url}/api/docs`);
      assert.match(answer?.headers()["content-security-policy"] ?? "", /script-src 'self'(;|$)/);
      const operation = page.locator(".opblock-summary", { hasText: "/v1/auth" });
      await operation.waitFor();
      assert.ok(await operation.isVisible());
      await page.getByText("Lectern developer API").first().waitFor();
      assert.ok(await page.locator(".opblock").count() >= 1);
      await operation.click();
      await page.getByText("Answers `{authenticated: true}`", { exact: false }).or(
        page.getByText("Answers {authenticated: true}", { exact: false }),
      ).first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: new URL("api-docs.png", SCREENSHOTS).pathname });
      assert.deepEqual(foreign, [], "everything comes from this server");
      assert.deepEqual(errors, [], "console errors (a CSP refusal is one)");
    } finally {
      await browser.close();
    }
  },
});
