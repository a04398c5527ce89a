import assert from "node:assert/strict";
import type { Workspace } from "../../shared/api/workspaces.ts";
import { ApiError } from "../lib/api.ts";
import { createdWorkspace, workspaceName } from "./workspace_name.ts";

Deno.test("workspaceName() trims the typed name and is null while it is blank", () => {
  assert.equal(workspaceName("  My Workspace "), "My Workspace");
  assert.equal(workspaceName(""), null);
  assert.equal(workspaceName(" \t\n"), null);
});

Deno.test("createdWorkspace() returns the workspace the answer made", () => {
  const workspace = { id: 1, slug: "my-workspace", name: "My Workspace" } as Workspace;
  assert.equal(createdWorkspace({ workspace, message: null }, "fallback", 400), workspace);
});

Deno.test("createdWorkspace() throws the server's message, else the fallback, with the given status", () => {
  const refused = { workspace: null, message: "A workspace needs a name." };
  assert.throws(() => createdWorkspace(refused, "fallback", 400), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.message, "A workspace needs a name.");
    assert.equal(error.status, 400);
    assert.equal(error.body, refused);
    return true;
  });
  assert.throws(() => createdWorkspace({ workspace: null, message: null }, "fallback", 200), {
    message: "fallback",
    status: 200,
  });
});
