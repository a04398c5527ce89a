import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import {
  browserTestOptions,
  hydrated,
  launchChromium,
  pageErrors,
  SCREENSHOTS,
  watchErrors,
} from "./chromium.ts";
import { signIn } from "./sessions.ts";

const LOGO_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 200" onload="alert(1)"><script>alert(2)</script>` +
  `<rect width="800" height="200" fill="#c0392b"/><text x="40" y="130" font-size="96" fill="#fff">ACME</text></svg>`;

Deno.test({
  name:
    "browser: an admin uploads a logo, names the app, sets footer links, welcome messages and a preset, and sees them",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const member = await addUser(app, admin, "dora", "default");
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = watchErrors(page);
      // A hostile logo must not run: any dialog would be a script that ran.
      page.on("dialog", (dialog) => {
        errors.push(`a dialog opened: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await signIn(page, url, admin);
      await page.goto(`${url}/settings/appearance`);
      await hydrated(page);
      const menuLink = page.locator(".settings-nav").getByRole("link", { name: "Appearance" });
      assert.equal(await menuLink.isVisible(), true, "an admin is offered the page in the menu");
      await page.getByText("Recommended size 800 x 200").waitFor();

      // Logo: a non-image is refused with a sentence, an SVG is taken (cleaned) and shows in the sidebar.
      const lightUpload = page.getByLabel("Upload a logo for the light theme");
      await lightUpload.setInputFiles({
        name: "notes.png",
        mimeType: "image/png",
        buffer: Buffer.from("hi"),
      });
      await page.getByText("Error uploading logo. The logo must be a PNG, JPEG, WebP or SVG image.")
        .waitFor();
      await lightUpload.setInputFiles({
        name: "acme.svg",
        mimeType: "image/svg+xml",
        buffer: Buffer.from(LOGO_SVG),
      });
      await page.getByText("Image uploaded successfully.").waitFor();
      await page.locator('[data-theme-variant="light"]').getByText("A custom logo is shown.").waitFor();

      // Names and contact.
      await page.getByLabel("Custom app name").fill("Acme Docs");
      await page.getByLabel("Support email").fill("help@acme.test");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Successfully updated the names and contact.").waitFor();

      // Footer links: a javascript: address is refused in the form, an https one is saved.
      await page.getByLabel("Icon 1").selectOption("GithubLogo");
      await page.getByLabel("Link 1").fill("javascript:alert(1)");
      await page.getByRole("button", { name: "Save links" }).click();
      await page.locator(".field-error", { hasText: "must be an http:// or https:// address" }).waitFor();
      await page.getByLabel("Link 1").fill("https://example.com/acme");
      await page.getByRole("button", { name: "Save links" }).click();
      await page.getByText("Successfully updated footer icons.").waitFor();

      // Welcome messages.
      await page.getByRole("button", { name: "Add a message" }).click();
      await page.getByLabel("User message 1").fill("What can I ask here?");
      await page.getByLabel("Assistant answer 1").fill("Anything about the Acme handbook.");
      await page.getByRole("button", { name: "Save messages" }).click();
      await page.getByText("Successfully updated welcome messages.").waitFor();

      // A slash command preset, then an edit.
      await page.getByLabel("Command", { exact: true }).fill("summary");
      await page.getByLabel("Prompt", { exact: true }).fill(
        "Summarise the last answer in three bullet points.",
      );
      await page.getByRole("button", { name: "Add preset" }).click();
      await page.getByText("Preset created.").waitFor();
      await page.locator(".preset-item code", { hasText: "/summary" }).waitFor();
      await page.getByRole("button", { name: "Edit /summary" }).click();
      await page.getByLabel("Description", { exact: true }).fill("Three bullets");
      await page.getByRole("button", { name: "Save preset" }).click();
      await page.getByText("Preset updated.").waitFor();
      await page.locator(".preset-item", { hasText: "Three bullets" }).waitFor();
      await page.screenshot({ path: new URL("appearance.png", SCREENSHOTS).pathname, fullPage: true });

      // The next page shows it all: title, logo in the sidebar, footer link.
      await page.goto(`${url}/`);
      await hydrated(page);
      assert.match(await page.title(), /\| Acme Docs$/);
      const sidebarLogo = page.locator(".sidebar .brand img");
      await sidebarLogo.waitFor();
      assert.equal(await sidebarLogo.getAttribute("alt"), "Acme Docs");
      assert.ok(await sidebarLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
      const footerLink = page.locator(".sidebar-links a");
      assert.equal(await footerLink.count(), 1);
      assert.equal(await footerLink.getAttribute("href"), "https://example.com/acme");
      assert.equal(await footerLink.getAttribute("rel"), "noopener noreferrer");
      await page.getByText("Anything about the Acme handbook.").waitFor();

      // The served logo was cleaned: no script, no handler.
      const served = await (await app.request("/api/system/logo?theme=light")).text();
      assert.doesNotMatch(served, /script|onload/);

      // The sign-in screen shows the logo and the name, on a phone as well.
      const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const login = await visitor.newPage();
      await login.goto(`${url}/login`);
      await hydrated(login);
      assert.match(await login.title(), /\| Acme Docs$/);
      await login.getByRole("heading", { name: "Sign in to Acme Docs" }).waitFor();
      const loginLogo = login.locator(".auth-logo img");
      await loginLogo.waitFor();
      assert.ok(await loginLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
      await login.screenshot({ path: new URL("appearance-login.png", SCREENSHOTS).pathname });
      await visitor.close();

      // A default user sees the branding but is not offered the page, and the server refuses its calls.
      const memberContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const memberPage = await memberContext.newPage();
      await signIn(memberPage, url, member);
      await memberPage.goto(`${url}/`);
      await hydrated(memberPage);
      await memberPage.getByText("What can I ask here?").waitFor();
      const refused = await app.json("/api/admin/system-preferences", {
        ...bearer(member.token),
        json: { custom_app_name: "Mine" },
      });
      assert.equal(refused.status, 403);
      await memberContext.close();

      assert.deepEqual(pageErrors(errors), [], "only the refused upload's 400, which the test asked for");
    } finally {
      await browser.close();
    }
  },
});
