// kill -9 of the real server while it streams a chat answer.
import assert from "node:assert/strict";
import { startServerProcess } from "../../server/testing/process.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { checkDatabaseFile, getJson, postJson } from "./helpers.ts";

async function completeChat(url: string, message: string) {
  const response = await fetch(url, { method: "POST", body: JSON.stringify({ message }) });
  const text = await response.text();
  assert.match(text, /"type":"finalizeResponseStream"/, "the answer was acknowledged whole");
}

Deno.test({
  name:
    "kill -9 during a streaming chat: earlier chats, threads and settings are intact, the cut answer is absent, the database passes integrity_check",
  sanitizeResources: false,
  async fn() {
    const storage = await Deno.makeTempDir({ prefix: "lectern-faults-" });
    await using llm = startFakeOpenAi();
    try {
      let thread: string;
      {
        await using server = await startServerProcess({ STORAGE_DIR: storage });
        const api = `${server.url}/api`;
        assert.equal(
          (await postJson(`${api}/system/update-env`, genericOpenAiSettings(llm.baseURL))).status,
          200,
        );
        assert.equal((await postJson(`${api}/workspace/new`, { name: "Talk" })).status, 200);
        assert.equal((await postJson(`${api}/workspace/talk/update`, { openAiHistory: 7 })).status, 200);
        thread = (await postJson(`${api}/workspace/talk/thread/new`, {})).body.thread.slug;
        await completeChat(`${api}/workspace/talk/stream-chat`, "first question");
        await completeChat(`${api}/workspace/talk/thread/${thread}/stream-chat`, "thread question");

        // The next answer streams its first words, then stays open: the server dies after they reached the
        // client, and the answer cannot end first however late a loaded machine lets this test send the kill.
        llm.setReply(() => ({
          chunks: Array.from({ length: 400 }, (_, index) => `w${index} `),
          delayMs: 15,
          hangAfter: 20,
        }));
        const response = await fetch(`${api}/workspace/talk/thread/${thread}/stream-chat`, {
          method: "POST",
          body: JSON.stringify({ message: "cut me off" }),
        });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let received = "";
        while (!received.includes("w3 ")) received += (await reader.read()).value ?? "";
        await server.kill("SIGKILL");
        assert.notEqual(await server.exited(), 0);
        await reader.read().then(() => reader.cancel(), () => {});
      }

      await using server = await startServerProcess({ STORAGE_DIR: storage });
      const api = `${server.url}/api`;
      // The acknowledged setting, workspace setting and chats are there, whole.
      const setup = await getJson(`${api}/setup-complete`);
      assert.equal(setup.results.LLMProvider, "generic-openai");
      assert.equal((await getJson(`${api}/workspace/talk`)).workspace.openAiHistory, 7);
      const main = (await getJson(`${api}/workspace/talk/chats`)).history;
      assert.deepEqual(main.map((entry: { content: string }) => entry.content), [
        "first question",
        "You asked: first question. I saw 0 context blocks.",
      ]);
      // The thread list is intact; the thread holds its acknowledged chat and nothing of the cut one: an answer
      // is saved when it ends (or is stopped by the client or a shutdown), so a killed process leaves none.
      const threads = (await getJson(`${api}/workspace/talk/threads`)).threads;
      assert.deepEqual(threads.map((entry: { slug: string }) => entry.slug), [thread]);
      const inThread = (await getJson(`${api}/workspace/talk/thread/${thread}/chats`)).history;
      assert.deepEqual(inThread.map((entry: { content: string }) => entry.content), [
        "thread question",
        "You asked: thread question. I saw 0 context blocks.",
      ]);
      // The thread takes new chats after the restart.
      llm.setReply((request) => ({ chunks: [`again: ${request.messages.at(-1)?.content}`] }));
      await completeChat(`${api}/workspace/talk/thread/${thread}/stream-chat`, "still there?");
      assert.equal((await getJson(`${api}/workspace/talk/thread/${thread}/chats`)).history.length, 4);
      await server.kill("SIGTERM");
      assert.equal(await server.exited(), 0);
      await checkDatabaseFile(`${storage}/lectern.db`);
    } finally {
      await Deno.remove(storage, { recursive: true });
    }
  },
});
