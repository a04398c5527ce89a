import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

Deno.test({
  name:
    "browser: an admin lists the workspaces with their member counts, creates one and deletes it after confirming",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const dora = await addUser(app, admin, "dora", "default");
    const eve = await addUser(app, admin, "eve", "default");
    const manager = await addUser(app, admin, "morgan", "manager");
    const made = await app.json<{ workspace: { id: number } }>("/api/admin/workspaces/new", {
      ...bearer(admin.token),
      json: { name: "Atlas" },
    });
    await app.json(`/api/admin/workspaces/${made.body.workspace.id}/update-users`, {
      ...bearer(admin.token),
      json: { userIds: [dora.user.id, eve.user.id] },
    });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      await page.goto(`${url}/settings/llm-preference`);
      await hydrated(page);
      await page.locator(".settings-nav").getByRole("link", { name: "Workspaces" }).click();
      await page.waitForURL(`${url}/settings/workspaces`);
      await hydrated(page);

      const rows = page.locator(".workspaces-table tbody tr");
      await rows.first().waitFor();
      const atlas = rows.filter({ hasText: "Atlas" });
      assert.equal(await atlas.locator(".workspace-member-count").innerText(), "2 members");
      assert.equal(
        await atlas.locator(".workspace-member-count").getAttribute("href"),
        "/workspace/atlas/settings/members",
        "the count opens the members tab, where they are edited",
      );
      assert.equal(
        await atlas.getByRole("link", { name: "Open Atlas" }).getAttribute("href"),
        "/workspace/atlas",
      );

      // Create: a blank name is refused in the form; a name makes the workspace, its creator its one member.
      await page.locator(".settings-content").getByRole("button", { name: "New workspace" }).click();
      const dialog = page.getByRole("dialog", { name: "Create a new workspace" });
      await dialog.getByRole("button", { name: "Create workspace" }).click();
      await dialog.getByText("Enter a name for the workspace.").waitFor();
      await dialog.getByLabel("Workspace name").fill("  Harbour log  ");
      await dialog.getByRole("button", { name: "Create workspace" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByText("Workspace Harbour log created.").waitFor();
      const harbour = rows.filter({ hasText: "Harbour log" });
      await harbour.waitFor();
      assert.equal(await harbour.locator(".workspace-member-count").innerText(), "1 member");
      const [stored] = await app.deps.db.select().from(workspaces).where(eq(workspaces.name, "Harbour log"));
      assert.ok(stored, "the server has it");
      await page.getByRole("heading", { name: "2 workspaces" }).waitFor();
      await page.screenshot({ path: new URL("workspaces-admin.png", SCREENSHOTS).pathname });

      // Delete: cancelling keeps it; confirming removes it here and on the server.
      await harbour.getByRole("button", { name: "Delete Harbour log" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete this workspace?" });
      await confirm.getByText(/Delete Harbour log\? Its chats, threads, documents and settings/).waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden" });
      assert.equal((await app.deps.db.select().from(workspaces)).length, 2, "cancel deletes nothing");
      await harbour.getByRole("button", { name: "Delete Harbour log" }).click();
      await confirm.getByRole("button", { name: "Delete workspace" }).click();
      await page.getByText("Workspace Harbour log deleted.").waitFor();
      await harbour.waitFor({ state: "detached" });
      assert.deepEqual((await app.deps.db.select().from(workspaces)).map((row) => row.name), ["Atlas"]);
      await page.getByRole("heading", { name: "1 workspace", exact: true }).waitFor();

      // On a phone each workspace is a card and nothing runs off the side, in both colour schemes.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
        assert.ok(await atlas.getByRole("button", { name: "Delete Atlas" }).isVisible());
        await page.screenshot({
          path: new URL(`workspaces-admin-phone-${colorScheme}.png`, SCREENSHOTS).pathname,
          fullPage: true,
        });
      }
      assert.deepEqual(errors, []);
      await page.close();

      // A manager is not offered the screen, and is sent away from it.
      const managerPage = await browser.newPage();
      await signIn(managerPage, url, manager);
      await managerPage.goto(`${url}/settings/llm-preference`);
      await hydrated(managerPage);
      assert.equal(
        await managerPage.locator(".settings-nav").getByRole("link", { name: "Workspaces" }).count(),
        0,
      );
      await managerPage.goto(`${url}/settings/workspaces`);
      await managerPage.waitForURL((target) => target.pathname !== "/settings/workspaces");
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "browser: on a single-user instance the workspaces screen lists, creates and deletes without members",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.json("/api/workspace/new", { json: { name: "Solo" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/workspaces`);
      await hydrated(page);
      await page.getByText("This instance is in single-user mode, so workspaces have no members.").waitFor();
      const rows = page.locator(".workspaces-table tbody tr");
      await rows.filter({ hasText: "Solo" }).waitFor();
      assert.equal(await page.locator(".workspaces-table th", { hasText: "Members" }).count(), 0);

      await page.locator(".settings-content").getByRole("button", { name: "New workspace" }).click();
      const dialog = page.getByRole("dialog", { name: "Create a new workspace" });
      await dialog.getByLabel("Workspace name").fill("Second");
      await dialog.getByRole("button", { name: "Create workspace" }).click();
      await rows.filter({ hasText: "Second" }).waitFor();

      await rows.filter({ hasText: "Solo" }).getByRole("button", { name: "Delete Solo" }).click();
      await page.getByRole("dialog", { name: "Delete this workspace?" })
        .getByRole("button", { name: "Delete workspace" }).click();
      await rows.filter({ hasText: "Solo" }).waitFor({ state: "detached" });
      assert.deepEqual((await app.deps.db.select().from(workspaces)).map((row) => row.name), ["Second"]);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
