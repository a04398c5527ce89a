import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import { SINGLE_USER_ACTOR } from "../auth/actor.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { configuredTestApp } from "../testing/test_app.ts";
import type { StoredExchange } from "./history.ts";
import { prepareTurn } from "./turn.ts";

Deno.test("prepareTurn: the workspace's vector count is asked while the history is read, and the turn carries it", async () => {
  await using app = await configuredTestApp();
  await app.json("/api/workspace/new", { json: { name: "Counted" } });
  const [workspace] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, "counted"));
  const asked: string[] = [];
  const count = app.deps.vectors.count.bind(app.deps.vectors);
  app.deps.vectors.count = (namespace: string) => {
    asked.push(namespace);
    return count(namespace);
  };
  // The history is read from a store that answers only when told to.
  const history = Promise.withResolvers<StoredExchange[]>();
  let historyAsked = false;
  const preparing = prepareTurn(app.deps, {
    actor: SINGLE_USER_ACTOR,
    workspace,
    threadId: null,
    message: "Where do herons nest?",
    store: {
      recent: () => {
        historyAsked = true;
        return history.promise;
      },
      save: () => Promise.resolve(0),
    },
  }, "uuid");
  const ended = preparing.then(() => true);
  for (let wait = 0; !historyAsked && wait < 200; wait++) {
    await Promise.race([
      ended,
      new Promise((r) => setTimeout(r, 5)),
    ]);
  }
  assert.ok(historyAsked, JSON.stringify(await Promise.race([preparing, null])));
  // The history has not come yet: the count was asked for all the same, once, for the embedder's namespace.
  assert.deepEqual(asked, [workspaceNamespace(workspace.id, app.deps.providers.embedder())]);
  history.resolve([]);
  const turn = await preparing;
  assert.ok(!("ended" in turn));
  assert.equal(await turn.vectorCount, 0);
  assert.equal(asked.length, 1);
});
