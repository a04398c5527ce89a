import assert from "node:assert/strict";
import { addUser, multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

Deno.test({
  name:
    "browser: an admin generates a browser extension key, copies its connection string, the extension's message refreshes the list, and revokes it",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const manager = await addUser(app, admin, "morgan", "manager");
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      await page.goto(`${url}/settings/browser-extension`);
      await hydrated(page);
      // The window messages the page posts (what the extension's content script would receive).
      await page.evaluate(() => {
        const seen: unknown[] = [];
        (globalThis as unknown as { seen: unknown[] }).seen = seen;
        globalThis.addEventListener("message", (event) => seen.push(event.data));
      });
      const menuLink = page.locator(".settings-nav").getByRole("link", { name: "Browser Extension" });
      assert.equal(await menuLink.isVisible(), true, "an admin is offered the page in the menu");
      await page.getByText("No extension keys yet.").waitFor();

      await page.getByRole("button", { name: "Generate new key" }).click();
      const dialog = page.getByRole("dialog", { name: "New browser extension key" });
      await dialog.getByText("Share it with care").waitFor();
      await dialog.getByRole("button", { name: "Create key" }).click();
      const field = dialog.locator("#browser-extension-connection");
      await field.waitFor();
      const connection = await field.inputValue();
      assert.match(connection, new RegExp(`^${url}/api\\|brx-[0-9A-Z]{7}(-[0-9A-Z]{7}){3}$`));
      await dialog.getByRole("button", { name: "Copy" }).click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), connection, "copied");
      const posted = await page.evaluate(() => (globalThis as unknown as { seen: unknown[] }).seen);
      assert.deepEqual(posted, [{ type: "NEW_BROWSER_EXTENSION_CONNECTION", apiKey: connection }]);
      await page.screenshot({ path: new URL("browser-extension-new-key.png", SCREENSHOTS).pathname });

      // The connection string works as the extension uses it.
      const [apiBase, key] = connection.split("|");
      const check = await fetch(`${apiBase}/browser-extension/check`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      assert.equal(check.status, 200);
      assert.equal((await check.json()).connected, true);

      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "hidden" });
      const rows = page.locator(".browser-extension-table tbody tr");
      await rows.first().waitFor();
      assert.equal(await rows.count(), 1);
      const rowText = await rows.first().innerText();
      assert.ok(rowText.includes("admin"), `the row names its creator: ${rowText}`);
      assert.ok(!rowText.includes(key), "the list shows the key masked");
      assert.ok(rowText.includes(`brx-${key.slice(4, 8)}…${key.slice(-4)}`), rowText);

      // A key made elsewhere (another tab) shows up when the extension announces a connection in this page.
      const other = await fetch(`${url}/api/browser-extension/api-keys/new`, {
        method: "POST",
        headers: { Authorization: `Bearer ${admin.token}` },
      });
      assert.equal(other.status, 200);
      await other.body?.cancel();
      await page.evaluate(() =>
        globalThis.postMessage({ type: "NEW_BROWSER_EXTENSION_CONNECTION" }, globalThis.location.origin)
      );
      await page.locator(".browser-extension-table tbody tr").nth(1).waitFor();
      assert.equal(await rows.count(), 2);

      // On a phone nothing overflows the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= globalThis.innerWidth));
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({
        path: new URL("browser-extension-phone-dark.png", SCREENSHOTS).pathname,
        fullPage: true,
      });
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Revoking asks first; cancelling keeps the key.
      const masked = `brx-${key.slice(4, 8)}…${key.slice(-4)}`;
      await page.getByRole("button", { name: `Revoke the key ${masked}` }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke extension key" });
      await confirm.getByText("cannot be undone").waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden" });
      assert.equal(await rows.count(), 2);
      await page.getByRole("button", { name: `Revoke the key ${masked}` }).click();
      await confirm.getByRole("button", { name: "Revoke key" }).click();
      await page.getByText("The key was revoked.").waitFor();
      await page.waitForFunction(() =>
        document.querySelectorAll(".browser-extension-table tbody tr").length === 1
      );
      const revoked = await fetch(`${apiBase}/browser-extension/check`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      assert.equal(revoked.status, 403, "the revoked key is refused");
      await revoked.body?.cancel();
      assert.deepEqual(errors, [], "console errors");
      await context.close();

      // A manager is sent home by the page guard (the route table: admins only) and is not offered the page.
      const managerPage = await browser.newPage();
      await signIn(managerPage, url, manager);
      await managerPage.goto(`${url}/settings/browser-extension`);
      await managerPage.waitForURL(`${url}/`);
      await managerPage.goto(`${url}/settings/event-logs`);
      await hydrated(managerPage);
      assert.equal(
        await managerPage.locator(".settings-nav").getByRole("link", { name: "Browser Extension" }).count(),
        0,
        "the menu does not offer the page to a manager",
      );
      await managerPage.close();
    } finally {
      await browser.close();
    }
  },
});
