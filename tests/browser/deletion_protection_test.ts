import assert from "node:assert/strict";
import { createTestApp } from "../../server/testing/test_app.ts";
import { addUser, multiUserInstance } from "../../server/testing/accounts.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

Deno.test({
  name: "browser: with deletion protection a manager sees no delete, an admin deletes after typing the name",
  ...browserTestOptions,
  async fn() {
    await using app = await createTestApp({ env: { WORKSPACE_DELETION_PROTECTION: "1" } });
    const admin = await multiUserInstance(app);
    const manager = await addUser(app, admin, "mia", "manager");
    for (const name of ["Atlas", "Keeper"]) {
      const made = await app.json("/api/workspace/new", {
        headers: { Authorization: `Bearer ${admin.token}` },
        json: { name },
      });
      assert.equal(made.status, 200);
    }
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const managerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const managerPage = await managerContext.newPage();
      const managerErrors = watchErrors(managerPage);
      await signIn(managerPage, url, manager);
      await managerPage.goto(`${url}/workspace/atlas/settings/general-appearance`);
      await hydrated(managerPage);
      await managerPage.getByRole("heading", { name: "Suggested Chat Messages" }).waitFor();
      assert.equal(await managerPage.getByRole("button", { name: "Delete Workspace" }).count(), 0);
      assert.deepEqual(managerErrors, []);
      await managerContext.close();

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await signIn(page, url, admin);
      await page.goto(`${url}/workspace/atlas/settings/general-appearance`);
      await hydrated(page);
      await page.getByRole("button", { name: "Delete Workspace" }).click();
      const dialog = page.getByRole("dialog");
      const confirm = dialog.getByRole("button", { name: "Delete Workspace" });
      assert.equal(await confirm.isDisabled(), true, "off until the name is typed");
      const field = dialog.getByLabel('Deletion protection is on: type "Atlas" to delete it.');
      await field.fill("Atla");
      assert.equal(await confirm.isDisabled(), true);
      await field.fill("Atlas");
      await confirm.click();
      await page.getByText("Workspace Atlas deleted. Taking you home...").waitFor();
      await page.waitForURL(`${url}/`);
      assert.equal(
        (await app.json("/api/workspace/atlas", { headers: { Authorization: `Bearer ${admin.token}` } }))
          .status,
        404,
      );
    } finally {
      await browser.close();
    }
  },
});
