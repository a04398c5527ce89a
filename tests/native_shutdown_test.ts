// The product path for the built-in model (node-llama-cpp): a server that has a model loaded stops cleanly on
// SIGTERM, whether idle or in the middle of an answer. (The provider's own tests run in a child process,
// server/providers/llm/native_llm/native_llm_test.ts, because `deno test` tearing down an isolate that holds
// llama.cpp crashed now and then; a server exits its process instead, which this checks.)
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServerProcess } from "../server/testing/process.ts";
import { nativeModelsDirectory } from "../server/providers/llm/native_llm/models.ts";
import { writeTinyLlamaGguf } from "../server/providers/llm/native_llm/testing/gguf_writer.ts";

async function post(url: string, body: unknown) {
  const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** A server over a fresh storage folder with the tiny model chosen, and a workspace's slug. */
async function nativeServer(storage: string) {
  const folder = nativeModelsDirectory(join(storage, "models"));
  await Deno.mkdir(folder, { recursive: true });
  await writeTinyLlamaGguf(join(folder, "tiny.gguf"), { contextLength: 4096 });
  const server = await startServerProcess({ STORAGE_DIR: storage });
  const saved = await post(`${server.url}/api/system/update-env`, {
    LLMProvider: "native",
    NativeLLMModelPref: "tiny.gguf",
    NativeLLMTokenLimit: "1024",
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const slug = (await post(`${server.url}/api/workspace/new`, { name: "Native" })).body.workspace
    .slug as string;
  return { server, slug };
}

Deno.test("a server with the built-in model loaded stops cleanly on SIGTERM", async () => {
  const storage = await Deno.makeTempDir({ prefix: "lectern-native-shutdown-" });
  try {
    const { server, slug } = await nativeServer(storage);
    await using _server = server;
    const answer = await fetch(`${server.url}/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "Say something." }),
    });
    const text = await answer.text();
    assert.match(text, /finalizeResponseStream/, text);
    assert.doesNotMatch(text, /"type":"abort"/, text);
    // The model stays loaded after the answer (5 minutes by default): the shutdown finds it in memory.
    await server.kill("SIGTERM");
    const code = await server.exited();
    assert.equal(code, 0, server.output());
    assert.match(server.output(), /Shutting down signal=SIGTERM/);
    assert.match(server.output(), /Stopped/);
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});

Deno.test("a server stops cleanly on SIGTERM in the middle of an answer of the built-in model", async () => {
  const storage = await Deno.makeTempDir({ prefix: "lectern-native-shutdown-" });
  try {
    const { server, slug } = await nativeServer(storage);
    await using _server = server;
    const answer = await fetch(`${server.url}/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "Say something." }),
    });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    // The first words have come: llama.cpp is generating.
    while (!received.includes("textResponseChunk")) {
      const { done, value } = await reader.read();
      assert.ok(!done, received);
      received += value;
    }
    await server.kill("SIGTERM");
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value;
    }
    const code = await server.exited();
    assert.equal(code, 0, server.output());
    assert.match(server.output(), /Shutting down signal=SIGTERM openStreams=1/);
    assert.match(server.output(), /Stopped/);
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});
