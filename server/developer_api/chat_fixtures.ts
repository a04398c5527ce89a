import assert from "node:assert/strict";
import { makeApiKey } from "../testing/api_keys.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { configuredTestApp, type TestApp, uploadText } from "../testing/test_app.ts";

// The developer API's chat tests share one world: a fake LLM, a configured Lectern, a full-access key and
// workspaces holding one embedded document.

export const FREEDONIA =
  "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.";

/** A workspace, with FREEDONIA embedded in it unless `document` is false. */
export async function workspace(app: TestApp, name: string, document = true) {
  const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    json: { name },
  });
  const { id, slug } = made.body.workspace;
  if (document) {
    const location = await uploadText(app, slug, "freedonia.txt", FREEDONIA);
    const embedded = await app.json(`/api/workspace/${slug}/update-embeddings`, {
      json: { adds: [location] },
    });
    assert.equal(embedded.status, 200);
  }
  return { id, slug };
}

/** A fake LLM, a Lectern configured to use it, and a full-access key; disposed together. */
export async function setup() {
  const llm = startFakeOpenAi();
  const app = await configuredTestApp({ llm: llm.baseURL });
  const { key } = await makeApiKey(app);
  return {
    llm,
    app,
    key,
    async [Symbol.asyncDispose]() {
      await app.close();
      await llm.close();
    },
  };
}
