import assert from "node:assert/strict";
import { echoReply, startFakeOpenAi } from "../testing/fake_openai.ts";
import { configuredTestApp, readFrames } from "../testing/test_app.ts";
import { REWRITE_MAX_TOKENS } from "../chat/rewrite.ts";
import { chatsStarting } from "./chat_window.ts";

Deno.test("a chat counts as starting (background jobs wait) until its answer's request is sent, and not after", async () => {
  await using llm = startFakeOpenAi();
  // What the count was when each request reached the model: the rewrite's, then the answer's.
  const seen: string[] = [];
  llm.setReply((request) => {
    seen.push(`${request.max_tokens === REWRITE_MAX_TOKENS ? "rewrite" : "answer"} ${chatsStarting()}`);
    return echoReply(request);
  });
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Window" },
  });
  const slug = created.body.workspace.slug;
  const form = new FormData();
  form.append("file", new File(["Herons wait by the river for fish."], "herons.txt", { type: "text/plain" }));
  const upload = await app.json(`/api/workspace/${slug}/upload-and-embed`, { method: "POST", body: form });
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  assert.equal(chatsStarting(), 0);
  for (const message of ["Where do herons wait?", "And what for?"]) {
    const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message }),
    });
    const frames = await readFrames(response);
    assert.ok(frames.some((frame) => frame.type === "finalizeResponseStream"), JSON.stringify(frames));
    assert.equal(chatsStarting(), 0, "an answered chat no longer counts");
  }
  // The follow-up's rewrite is asked while the chat is still starting (its search and prompt come after).
  assert.deepEqual(seen, ["answer 0", "rewrite 1", "answer 0"]);

  // A chat that ends before its model is asked (a query workspace without context refuses) stops counting too.
  await app.json(`/api/workspace/${slug}/update`, { json: { chatMode: "query", similarityThreshold: 0.99 } });
  const refused = await readFrames(
    await app.request(`/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "Quantum chromodynamics?" }),
    }),
  );
  assert.ok(refused.length > 0);
  assert.equal(chatsStarting(), 0);
});
