import assert from "node:assert/strict";
import { join } from "node:path";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

Deno.test({
  name:
    "browser: a workspace's editor uploads, its viewer cannot, and its owner sets the roles and the visibility",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const editor = await addUser(app, admin, "edna", "default");
    const viewer = await addUser(app, admin, "vera", "default");
    const made = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
      ...bearer(admin.token),
      json: { name: "Harbour" },
    });
    assert.equal(made.status, 200);
    const members = await app.json(`/api/admin/workspaces/${made.body.workspace.id}/update-users`, {
      ...bearer(admin.token),
      json: {
        userIds: [admin.user.id, editor.user.id, viewer.user.id],
        roles: { [editor.user.id]: "editor" },
      },
    });
    assert.equal(members.status, 200, JSON.stringify(members.body));
    const url = app.listen();
    const browser = await launchChromium();
    const folder = await Deno.makeTempDir();
    try {
      // The editor: an upload goes into the workspace; no library of every document, no members tab.
      const editorPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const editorErrors = watchErrors(editorPage);
      await signIn(editorPage, url, editor);
      await editorPage.goto(`${url}/workspace/harbour`);
      await hydrated(editorPage);
      await editorPage.getByRole("button", { name: "Documents (0)" }).click();
      const panel = editorPage.locator(".doc-manager.editor");
      await panel.waitFor();
      const notes = join(folder, "tide tables.txt");
      await Deno.writeTextFile(notes, "High tide at Fredville is at seven in the morning.");
      await editorPage.getByTestId("document-input").setInputFiles(notes);
      await panel.locator(".upload", { hasText: "tide tables.txt" }).getByText("Added").waitFor({
        timeout: 60_000,
      });
      await panel.locator(".document-list").getByText("tide tables.txt").waitFor();
      await editorPage.getByRole("button", { name: "Documents (1)" }).waitFor();
      assert.equal(
        await panel.locator(".doc-library").count(),
        0,
        "the library stays with admins and managers",
      );
      await editorPage.getByRole("link", { name: "Settings of Harbour" }).click();
      await hydrated(editorPage);
      await editorPage.getByRole("link", { name: "Chat", exact: true }).waitFor();
      assert.equal(await editorPage.locator("nav.tabs").getByRole("link", { name: "Members" }).count(), 0);
      assert.equal(await editorPage.getByRole("button", { name: "Delete Workspace" }).count(), 0);
      assert.deepEqual(editorErrors, []);

      // The viewer, on a phone: the documents to read, no upload, no settings.
      const viewerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const viewerPage = await viewerContext.newPage();
      const viewerErrors = watchErrors(viewerPage);
      await signIn(viewerPage, url, viewer);
      await viewerPage.goto(`${url}/workspace/harbour`);
      await hydrated(viewerPage);
      await viewerPage.getByRole("button", { name: "Documents (1)" }).click();
      await viewerPage.locator(".doc-manager.read-only").getByText("tide tables.txt").waitFor();
      await viewerPage.getByText("Only the workspace's editors and owners can add or remove them.").waitFor();
      assert.equal(await viewerPage.getByTestId("document-input").count(), 0, "no upload for a viewer");
      assert.equal(await viewerPage.getByRole("link", { name: "Settings of Harbour" }).count(), 0);
      await viewerPage.goto(`${url}/workspace/harbour/settings/general-appearance`);
      await hydrated(viewerPage);
      await viewerPage.getByText("You are a viewer of this workspace").waitFor();
      assert.equal(await viewerPage.getByLabel("Display name").count(), 0);
      // The server refuses her too.
      const refused = await app.json(`/api/workspace/harbour/upload-link`, {
        ...bearer(viewer.token),
        json: { link: "http://127.0.0.1:9/notice" },
      });
      assert.equal(refused.status, 403);
      assert.deepEqual(viewerErrors, []);
      await viewerContext.close();

      // The owner (the admin): each member's role, and the switch that opens the workspace to every user.
      const ownerPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const ownerErrors = watchErrors(ownerPage);
      await signIn(ownerPage, url, admin);
      await ownerPage.goto(`${url}/workspace/harbour/settings/members`);
      await hydrated(ownerPage);
      const veraRole = ownerPage.getByLabel("Role of vera");
      assert.equal(await veraRole.inputValue(), "viewer");
      assert.equal(await ownerPage.getByLabel("Role of edna").inputValue(), "editor");
      await veraRole.selectOption("editor");
      await ownerPage.getByRole("switch", { name: "Visible to all users" }).check();
      await ownerPage.getByRole("button", { name: "Save members" }).click();
      await ownerPage.getByText("Members saved.").waitFor();
      const role = await app.json<{ role: string }>("/api/workspace/harbour/my-role", bearer(viewer.token));
      assert.equal(role.body.role, "editor");
      const admins = await app.json<{ workspaces: { slug: string; visibleToAll: boolean }[] }>(
        "/api/admin/workspaces",
        bearer(admin.token),
      );
      assert.equal(admins.body.workspaces.find((row) => row.slug === "harbour")?.visibleToAll, true);
      assert.deepEqual(ownerErrors, []);
    } finally {
      await browser.close();
      await Deno.remove(folder, { recursive: true });
    }
  },
});
