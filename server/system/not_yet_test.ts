import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { bearer, multiUserInstance } from "../testing/accounts.ts";
import { MISSING_CALLS, type MissingCall } from "./not_yet.ts";

/** A concrete path for a route pattern: parameters and wildcards filled in. */
const concrete = (pattern: string) => pattern.replace(/:[a-zA-Z]+/g, "7").replace(/\*$/, "anything/below");

async function expect501(
  app: TestApp,
  method: string,
  path: string,
  call: MissingCall,
  init: RequestInit = {},
) {
  const answer = await app.json(path, { ...init, method, body: method === "GET" ? undefined : "{}" });
  assert.equal(answer.status, 501, `${method} ${path}`);
  const expected: Record<string, unknown> = { success: false, error: call.sentence, message: call.sentence };
  if (call.field) expected[call.field] = call.sentence;
  assert.deepEqual(answer.body, expected, `${method} ${path}`);
}

// Multi-user mode with an admin's session, so that the /api/admin calls pass their own guard (multi-user only).
Deno.test("every call of a feature still to come answers 501 with its sentence", async () => {
  await using app = await createTestApp();
  const admin = bearer((await multiUserInstance(app)).token);
  for (const call of MISSING_CALLS) {
    assert.match(call.sentence, /^[A-Z].*(not available yet|not offered by Lectern)[:.]/, call.sentence);
    assert.doesNotMatch(call.sentence, /#\d|issue/i, "worded for a user, without issue numbers");
    const methods = call.methods === "ALL" ? ["GET", "POST", "DELETE"] : call.methods;
    for (const path of call.paths) {
      for (const method of methods) await expect501(app, method, `/api${concrete(path)}`, call, admin);
    }
  }
});

/** Calls of the reference's web client (frontend/src/models, read at 72aabbd) that later features bring. */
const FRONTEND_CALLS: [string, string][] = [
  ["POST", "/api/utils/dmr/download-model"],
  ["POST", "/api/utils/foundry/capabilities"],
  ["POST", "/api/utils/lemonade/download-model"],
  ["POST", "/api/utils/lemonade/delete-model"],
  ["GET", "/api/agent-skills/generated-files/report.pdf"],
  ["POST", "/api/agent-skills/whitelist/add"],
  ["POST", "/api/agent-flows/save"],
  ["GET", "/api/agent-flows/list"],
  ["GET", "/api/agent-flows/0e2b"],
  ["DELETE", "/api/agent-flows/0e2b"],
  ["POST", "/api/agent-flows/0e2b/toggle"],
  ["GET", "/api/admin/agent-skills/gmail/status"],
  ["GET", "/api/admin/agent-skills/google-calendar/status"],
  ["POST", "/api/admin/agent-skills/outlook/auth-url"],
  ["GET", "/api/admin/agent-skills/outlook/status"],
  ["POST", "/api/admin/agent-skills/outlook/revoke"],
  ["POST", "/api/ext/gitea/branches"],
  ["POST", "/api/ext/drupalwiki"],
  ["POST", "/api/ext/obsidian/vault"],
  ["POST", "/api/ext/paperless-ngx"],
  ["GET", "/api/image-generation/generated-images/a.png"],
  ["POST", "/api/experimental/agent-plugins/hub-1/toggle"],
  ["POST", "/api/experimental/agent-plugins/hub-1/config"],
  ["DELETE", "/api/experimental/agent-plugins/hub-1"],
  ["GET", "/api/workspaces/atlas/memories"],
  ["POST", "/api/workspaces/atlas/memories"],
  ["PUT", "/api/memories/1"],
  ["POST", "/api/memories/1/demote/atlas"],
  ["GET", "/api/mobile/connect-info"],
  ["DELETE", "/api/mobile/1"],
  ["GET", "/api/model-routers"],
  ["PUT", "/api/model-routers/1/rules/reorder"],
  ["GET", "/api/scheduled-jobs"],
  ["POST", "/api/scheduled-jobs/runs/1/kill"],
  ["GET", "/api/telegram/config"],
  ["POST", "/api/telegram/revoke-user"],
  ["GET", "/api/web-push/pubkey"],
  ["POST", "/api/web-push/subscribe"],
];

Deno.test("the reference client's calls of later features get 501 with a sentence, never the generic 404", async () => {
  await using app = await createTestApp();
  const admin = bearer((await multiUserInstance(app)).token);
  for (const [method, path] of FRONTEND_CALLS) {
    const answer = await app.json(path, { ...admin, method, body: method === "GET" ? undefined : "{}" });
    assert.equal(answer.status, 501, `${method} ${path}`);
    const error = String((answer.body as { error?: unknown }).error);
    assert.match(error, /not (available yet|offered by Lectern)/, `${method} ${path}`);
  }
});

Deno.test("an unknown /api path is still the generic 404, and real routes win over the table", async () => {
  await using app = await createTestApp();
  for (const [method, path] of [["GET", "/api/no-such-thing"], ["POST", "/api/system/no-such-call"]]) {
    const answer = await app.json(path, { method });
    assert.equal(answer.status, 404, path);
    assert.deepEqual(answer.body, { success: false, error: `Cannot find the API route ${method} ${path}` });
  }
  assert.equal((await app.json("/api/ping")).status, 200);
  assert.equal((await app.json("/api/system/prompt-variables")).status, 200);
});

Deno.test("501 answers keep the login check; the developer API's docs, read without a session, answer before it", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const anonymous = await app.json("/api/agent-flows/save", { method: "POST", json: {} });
  assert.equal(anonymous.status, 401, "no session, no hint about the feature");
  const signedIn = await app.json("/api/agent-flows/save", {
    ...bearer(admin.token),
    method: "POST",
    json: {},
  });
  assert.equal(signedIn.status, 501);
  const docs = await app.request("/api/docs");
  assert.equal(docs.status, 200, "the docs are built: no 501 family for them any more");
  assert.match(await docs.text(), /<div id="swagger-ui">/);
  const document = await app.json<{ openapi: string }>("/api/docs/openapi.json");
  assert.equal(document.status, 200);
  assert.equal(document.body.openapi, "3.1.0");
  assert.ok(
    MISSING_CALLS.every((call) => !call.paths.some((path) => path.startsWith("/docs"))),
    "no family answers for the docs",
  );
});
