import assert from "node:assert/strict";
import {
  AdminWorkspaceList,
  createdOrThrow,
  MAX_WORKSPACE_NAME,
  memberCount,
  nameProblem,
  without,
  workspaceCalls,
  workspaceLinks,
} from "./workspaces_admin.ts";

const workspace = (id: number, slug: string, userIds?: number[]) =>
  AdminWorkspaceList.parse({
    workspaces: [{
      id,
      name: slug.toUpperCase(),
      slug,
      vectorTag: null,
      createdAt: "2026-01-05T10:00:00.000Z",
      openAiTemp: null,
      openAiHistory: 20,
      lastUpdatedAt: "2026-01-05T10:00:00.000Z",
      openAiPrompt: null,
      similarityThreshold: 0.25,
      chatProvider: null,
      chatModel: null,
      topN: 4,
      chatMode: "chat",
      pfpFilename: null,
      agentProvider: null,
      agentModel: null,
      queryRefusalResponse: null,
      vectorSearchMode: "default",
      hybridSearch: true,
      queryRewrite: true,
      ...(userIds ? { userIds } : {}),
    }],
  }).workspaces[0];

Deno.test("workspaceCalls(): the admin calls in multi-user mode, the ordinary workspace calls otherwise", () => {
  const atlas = { id: 7, slug: "atlas notes" };
  const multi = workspaceCalls(true);
  assert.deepEqual([multi.list, multi.create, multi.remove(atlas)], [
    "/admin/workspaces",
    "/admin/workspaces/new",
    "/admin/workspaces/7",
  ]);
  const single = workspaceCalls(false);
  assert.deepEqual([single.list, single.create, single.remove(atlas)], [
    "/workspaces",
    "/workspace/new",
    "/workspace/atlas%20notes",
  ]);
});

Deno.test("memberCount() counts the member ids in multi-user mode and has no count on a single-user instance", () => {
  assert.equal(memberCount(workspace(1, "a", [3, 4, 9]), true), 3);
  assert.equal(memberCount(workspace(1, "a", []), true), 0);
  assert.equal(memberCount(workspace(1, "a"), true), 0);
  assert.equal(memberCount(workspace(1, "a", [3]), false), null);
});

Deno.test("workspaceLinks() opens the workspace and its members tab", () => {
  assert.deepEqual(workspaceLinks({ slug: "team-notes" }), {
    open: "/workspace/team-notes",
    members: "/workspace/team-notes/settings/members",
  });
});

Deno.test("nameProblem() refuses a blank name and one longer than the server takes, after trimming", () => {
  assert.equal(nameProblem(""), "empty");
  assert.equal(nameProblem("   "), "empty");
  assert.equal(nameProblem("Atlas"), null);
  assert.equal(nameProblem(` ${"x".repeat(MAX_WORKSPACE_NAME)} `), null);
  assert.equal(nameProblem("x".repeat(MAX_WORKSPACE_NAME + 1)), "tooLong");
});

Deno.test("createdOrThrow() gives the workspace, else the server's sentence from either answer shape", () => {
  const made = workspace(2, "b");
  assert.equal(createdOrThrow({ workspace: made, error: null }, "fallback"), made);
  assert.throws(() => createdOrThrow({ workspace: null, error: "name cannot be null" }, "fallback"), {
    message: "name cannot be null",
  });
  assert.throws(() => createdOrThrow({ workspace: null, message: "No." }, "fallback"), { message: "No." });
  assert.throws(() => createdOrThrow({ workspace: null }, "fallback"), { message: "fallback" });
});

Deno.test("without() drops the deleted workspace and keeps the order of the rest", () => {
  const list = [workspace(1, "a"), workspace(2, "b"), workspace(3, "c")];
  assert.deepEqual(without(list, 2).map((entry) => entry.id), [1, 3]);
  assert.deepEqual(without(list, 99).map((entry) => entry.id), [1, 2, 3]);
});
