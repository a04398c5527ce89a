import assert from "node:assert/strict";
import { startServerProcess } from "../server/testing/process.ts";
import { startFakeOpenAi } from "../server/testing/fake_openai.ts";
import { genericOpenAiSettings } from "../server/testing/test_app.ts";

async function post(url: string, body: unknown) {
  const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

Deno.test("the server process logs one line per request and stops cleanly on SIGTERM, ending open streams", async () => {
  const storage = await Deno.makeTempDir();
  await using llm = startFakeOpenAi();
  // The answer's first words come, then it stays open: only the shutdown can end the stream, however late a
  // loaded machine lets this test send SIGTERM (200 words streamed to their end in 4 s).
  llm.setReply(() => ({
    chunks: Array.from({ length: 200 }, (_, index) => `t${index} `),
    delayMs: 20,
    hangAfter: 10,
  }));
  try {
    await using server = await startServerProcess({ STORAGE_DIR: storage });
    assert.match(server.output(), /Lectern is listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(
      (await Deno.stat(`${storage}/keys/jwt.key`)).isFile,
      "the JWT secret is generated on first start",
    );
    assert.equal((await Deno.stat(`${storage}/keys/jwt.key`)).mode! & 0o777, 0o600);
    await post(`${server.url}/api/system/update-env`, genericOpenAiSettings(llm.baseURL));
    const workspace = await post(`${server.url}/api/workspace/new`, { name: "Shutdown" });
    const slug = workspace.body.workspace.slug;

    const response = await fetch(`${server.url}/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "long answer please" }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    while (!received.includes("t3 ")) received += (await reader.read()).value ?? "";
    await server.kill("SIGTERM");
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value;
    }
    // The stream ended (the model never ends it), and the server exited 0 before its 10 s forced exit.
    assert.equal(await server.exited(), 0);
    assert.match(server.output(), /INFO POST \/api\/workspace\/new status=200 ms=/);
    assert.match(server.output(), /Shutting down signal=SIGTERM openStreams=1/);
    assert.match(server.output(), /Stopped/);

    await using again = await startServerProcess({ STORAGE_DIR: storage });
    const history = await (await fetch(`${again.url}/api/workspace/${slug}/chats`)).json();
    assert.equal(history.history.length, 2, "the partial answer was saved on shutdown");
    assert.match(history.history[1].content, /^t0 t1 t2 t3 /);
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});

Deno.test("an acknowledged setting, document and chat survive kill -9", async () => {
  const storage = await Deno.makeTempDir();
  await using llm = startFakeOpenAi();
  try {
    let slug: string;
    {
      await using server = await startServerProcess({ STORAGE_DIR: storage });
      assert.equal(
        (await post(`${server.url}/api/system/update-env`, genericOpenAiSettings(llm.baseURL))).status,
        200,
      );
      slug = (await post(`${server.url}/api/workspace/new`, { name: "Durable" })).body.workspace.slug;
      const form = new FormData();
      form.append("file", new File(["Durable facts about herons."], "herons.txt"));
      const upload = await fetch(`${server.url}/api/workspace/${slug}/upload-and-embed`, {
        method: "POST",
        body: form,
      });
      assert.equal((await upload.json()).success, true);
      const chat = await fetch(`${server.url}/api/workspace/${slug}/stream-chat`, {
        method: "POST",
        body: JSON.stringify({ message: "Tell me about herons" }),
      });
      assert.match(await chat.text(), /finalizeResponseStream/);
      await server.kill("SIGKILL");
      assert.notEqual(await server.exited(), 0);
    }
    await using again = await startServerProcess({ STORAGE_DIR: storage });
    const setup = await (await fetch(`${again.url}/api/setup-complete`)).json();
    assert.equal(setup.results.LLMProvider, "generic-openai");
    const workspace = await (await fetch(`${again.url}/api/workspace/${slug}`)).json();
    assert.equal(workspace.workspace.documents.length, 1);
    const history = await (await fetch(`${again.url}/api/workspace/${slug}/chats`)).json();
    assert.equal(history.history.length, 2);
    assert.equal(history.history[1].sources[0].title, "herons.txt");
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});

Deno.test("the server refuses to start with a bad environment and says why", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../server/main.ts", import.meta.url).pathname],
    env: { PORT: "not-a-port", LOG_LEVEL: "shouty" },
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stderr } = await child.output();
  assert.equal(code, 2);
  const text = new TextDecoder().decode(stderr);
  assert.match(text, /Invalid environment variables/);
  assert.match(text, /PORT: PORT must be a whole number/);
  assert.match(text, /LOG_LEVEL: LOG_LEVEL must be one of/);
});

Deno.test("a started server collects its heap once it is quiet (server/memory_settle.ts)", async () => {
  const storage = await Deno.makeTempDir();
  try {
    await using server = await startServerProcess({ STORAGE_DIR: storage, LOG_LEVEL: "debug" });
    // The growth after the first API call is the unit tests' (memory_settle_test.ts): how much room V8 leaves
    // then varies from run to run.
    for (let waited = 0; !/Heap collected while quiet/.test(server.output()); waited += 100) {
      if (waited > 60_000) throw new Error(`no collection after the start:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(server.output(), /Heap collected while quiet heapMiB=\[[\d.]+,[\d.]+\]/);
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});
