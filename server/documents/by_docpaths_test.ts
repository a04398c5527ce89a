import assert from "node:assert/strict";
import { users } from "../../db/schema.ts";
import { signSession } from "../auth/jwt.ts";
import { LABELS } from "../settings/service.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { DocpathsAnswer } from "../../shared/api/library.ts";
import { seedDocument } from "./library_fixtures.ts";

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

function byDocpaths(app: TestApp, body: unknown, init: RequestInit = {}) {
  return app.json<Record<string, unknown>>("/api/system/local-files/by-docpaths", { ...init, json: body });
}

Deno.test("by-docpaths answers the picker entry of each stored document asked for, in order, with its docpath", async () => {
  await using app = await createTestApp();
  const alpha = await seedDocument(app.deps, "Alpha.txt");
  const inside = await seedDocument(app.deps, "Inside.txt", { folder: "archive" });
  const link = await seedDocument(app.deps, "Page.html", { chunkSource: "link://https://example.com/page" });
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    json: { name: "Atlas" },
  });
  const { slug, id } = created.body.workspace;
  assert.equal(
    (await app.json(`/api/workspace/${slug}/update-embeddings`, { json: { adds: [inside.location] } }))
      .status,
    200,
  );
  const pinned = await app.json(`/api/workspace/${slug}/update-pin`, {
    json: { docPath: inside.location, pinStatus: true },
  });
  assert.equal(pinned.status, 200);

  const answer = await byDocpaths(app, {
    docpaths: [
      inside.location,
      "custom-documents/missing.json",
      alpha.location,
      "../../etc/passwd",
      inside.location,
      link.location,
    ],
  });
  assert.equal(answer.status, 200);
  const { documents } = DocpathsAnswer.parse(answer.body);
  assert.deepEqual(documents.map((document) => document.docpath), [
    inside.location,
    alpha.location,
    link.location,
  ]);
  const [first, second, third] = documents;
  assert.equal(first.title, "Inside.txt");
  assert.equal(first.name, inside.location.split("/")[1]);
  assert.equal(first.type, "file");
  assert.equal(first.folder, "archive");
  assert.deepEqual(first.pinnedWorkspaces, [id]);
  assert.equal(first.watched, false);
  assert.equal(first.cached, true, "its vectors were cached when it was embedded");
  for (const field of ["id", "url", "docAuthor", "description", "docSource", "chunkSource", "published"]) {
    assert.equal(typeof (first as Record<string, unknown>)[field], "string", field);
  }
  assert.ok(first.wordCount > 0 && first.token_count_estimate > 0);
  assert.equal((first as Record<string, unknown>).pageContent, undefined, "never the text");
  assert.deepEqual([second.pinnedWorkspaces, second.cached, second.canWatch], [[], false, false]);
  assert.equal(third.canWatch, true);

  const empty = await byDocpaths(app, { docpaths: [] });
  assert.deepEqual([empty.status, empty.body], [200, { documents: [] }]);
});

Deno.test("by-docpaths refuses a body without a list of paths with a sentence", async () => {
  await using app = await createTestApp();
  for (const body of [{}, { docpaths: "custom-documents/a.json" }, { docpaths: [1] }]) {
    const answer = await byDocpaths(app, body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.match(String(answer.body.error), /docpaths.*must be a list of document paths/);
    assert.equal(answer.body.success, false);
  }
  const broken = await app.json("/api/system/local-files/by-docpaths", { method: "POST", body: "{docpaths" });
  assert.equal(broken.status, 400);
  assert.match(String((broken.body as { error: string }).error), /^The request body is not valid JSON/);
});

Deno.test("by-docpaths is for admins and managers", async () => {
  await using app = await createTestApp();
  const alpha = await seedDocument(app.deps, "Alpha.txt");
  await app.deps.settings.setLabels({ [LABELS.multiUserMode]: "true" });
  const tokens: Record<string, RequestInit> = {};
  for (const role of ["admin", "manager", "default"] as const) {
    const [user] = await app.deps.db.insert(users).values({ username: `${role}-user`, password: "x", role })
      .returning();
    tokens[role] = bearer(await signSession(app.deps.keys.jwt, { sub: String(user.id), ver: 0 }));
  }
  for (const role of ["admin", "manager"]) {
    const answer = await byDocpaths(app, { docpaths: [alpha.location] }, tokens[role]);
    assert.equal(answer.status, 200, role);
    assert.equal(DocpathsAnswer.parse(answer.body).documents.length, 1);
  }
  const refused = await byDocpaths(app, { docpaths: [alpha.location] }, tokens.default);
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.body, { success: false, error: "You do not have permission to do that." });
  const anonymous = await byDocpaths(app, { docpaths: [alpha.location] });
  assert.equal(anonymous.status, 401);
});
