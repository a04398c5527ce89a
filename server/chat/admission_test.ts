import assert from "node:assert/strict";
import { ChatAdmission, type StartSlot } from "./admission.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../testing/test_app.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import type { ChatRequest } from "../providers/llm/types.ts";

/** Lets queued promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Waits (by turns of the event loop, at most `turns`) until `ready` holds. */
async function until(ready: () => boolean, what: string, turns = 2000) {
  for (let turn = 0; turn < turns; turn++) {
    if (ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.fail(`never: ${what}`);
}

Deno.test("chat admission: at most `limit` starts run, the others wait and are admitted in the order they came", async () => {
  const admission = new ChatAdmission(2);
  const signal = new AbortController().signal;
  const admitted: number[] = [];
  const slots = new Map<number, StartSlot>();
  const entries = Array.from({ length: 6 }, (_, index) =>
    admission.enter(signal).then((slot) => {
      admitted.push(index);
      slots.set(index, slot);
    }));
  await settle();
  assert.deepEqual(admitted, [0, 1]);
  assert.equal(admission.active, 2);
  assert.equal(admission.waiting, 4);

  slots.get(1)!.release();
  slots.get(1)!.release(); // a second release gives nothing back twice
  await settle();
  assert.deepEqual(admitted, [0, 1, 2]);
  assert.equal(admission.active, 2);
  for (const index of [0, 2, 3, 4]) {
    slots.get(index)!.release();
    await settle();
  }
  await Promise.all(entries);
  assert.deepEqual(admitted, [0, 1, 2, 3, 4, 5]);
  assert.equal(admission.active, 1);
  assert.equal(admission.waiting, 0);
  slots.get(5)!.release();
  assert.equal(admission.active, 0);
});

Deno.test("chat admission: a waiter whose client left leaves the queue, and the next one takes the slot", async () => {
  const admission = new ChatAdmission(1);
  const first = await admission.enter(new AbortController().signal);
  const leaving = new AbortController();
  const left = admission.enter(leaving.signal);
  const admitted: string[] = [];
  const next = admission.enter(new AbortController().signal).then((slot) => {
    admitted.push("next");
    return slot;
  });
  assert.equal(admission.waiting, 2);
  leaving.abort(new Error("The client closed the connection"));
  await assert.rejects(left, /client closed/);
  assert.equal(admission.waiting, 1);
  first.release();
  (await next).release();
  assert.deepEqual(admitted, ["next"]);
  assert.equal(admission.active, 0);
  assert.equal(admission.waiting, 0);
  // Already gone before asking: refused at once, nothing taken.
  const gone = new AbortController();
  gone.abort(new Error("gone"));
  await assert.rejects(admission.enter(gone.signal), /gone/);
  assert.equal(admission.active, 0);
});

async function smallWorkspace(app: TestApp) {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Queue" },
  });
  return created.body.workspace.slug;
}

function chat(app: TestApp, slug: string, message: string) {
  return app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message }),
  });
}

Deno.test("stream-chat: with one start at a time, a chat waits while another starts; a client that leaves while waiting leaves the queue; the model's wait holds no slot", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp({ env: { CHAT_STARTS_AT_ONCE: "1" } });
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const slug = await smallWorkspace(app);
  const admission = app.deps.chatStarts;
  assert.equal(admission.limit, 1);

  // The "slow" chat's start stays busy (as building its request would) until `go`; then the model takes a
  // minute before answering at all, which is not the server's work and holds no slot.
  let go!: () => void;
  const gone = new Promise<void>((resolve) => (go = resolve));
  const real = app.deps.providers.chatModel;
  app.deps.providers.chatModel = (override) => {
    const model = real(override);
    return {
      ...model,
      async *stream(request: ChatRequest, signal: AbortSignal) {
        if (String(request.messages.at(-1)?.content).includes("slow")) await gone;
        yield* model.stream(request, signal);
      },
    };
  };
  llm.setReply((request) => {
    const last = String(request.messages.at(-1)?.content ?? "");
    return last.includes("slow") ? { chunks: ["slow answer"], waitMs: 60_000 } : { chunks: ["quick answer"] };
  });
  const slow = await chat(app, slug, "slow one");
  await until(() => admission.active === 1, "the slow chat starting");

  const waiting = await chat(app, slug, "quick one");
  assert.equal(waiting.status, 200, "the headers go out at once; the frames wait");
  await until(() => admission.waiting === 1, "the second chat queued");
  // Its client leaves before its turn: it is no longer waiting, and the model is never asked for it.
  await waiting.body!.cancel();
  await until(() => admission.waiting === 0, "the waiter removed");

  const third = chat(app, slug, "quick three");
  await until(() => admission.waiting === 1, "the third chat queued");
  assert.equal(llm.chatRequests.length, 0);
  go();
  // The slow chat's request is sent and its slot given back: the third chat is answered meanwhile.
  const frames = await readFrames(await third);
  const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
    .join("");
  assert.equal(text, "quick answer");
  assert.deepEqual(
    llm.chatRequests.map((request) =>
      String(request.messages.at(-1)?.content).match(/slow one|quick \w+/)?.[0]
    ),
    ["slow one", "quick three"],
  );
  await slow.body!.cancel();
  await until(() => admission.active === 0 && admission.waiting === 0, "every slot given back");
});

Deno.test("stream-chat: a start that fails gives its slot back (no deadlock with one start at a time)", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp({ env: { CHAT_STARTS_AT_ONCE: "1" } });
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const slug = await smallWorkspace(app);

  // The model refuses the first: its abort frame ends the chat.
  llm.setReply(() => ({ status: 500, message: "The model is down." }));
  const failed = await readFrames(await chat(app, slug, "first"));
  assert.equal(failed.at(-1)?.type, "abort");
  assert.match(String(failed.at(-1)?.error), /model is down/);

  // The retrieval fails unexpectedly for the second.
  const embedder = app.deps.providers.embedder;
  app.deps.providers.embedder = () => {
    throw new Error("The embedder is gone.");
  };
  const broken = await readFrames(await chat(app, slug, "second"));
  assert.equal(broken.at(-1)?.type, "abort");
  app.deps.providers.embedder = embedder;

  // /reset ends before the model is asked.
  const reset = await readFrames(await chat(app, slug, "/reset"));
  assert.equal(reset.at(-1)?.type, "textResponse");

  llm.setReply(() => ({ chunks: ["fine"] }));
  const frames = await readFrames(await chat(app, slug, "third"));
  assert.equal(
    frames.filter((frame) => frame.type === "textResponseChunk").map((f) => f.textResponse).join(""),
    "fine",
  );
  assert.equal(app.deps.chatStarts.active, 0);
  assert.equal(app.deps.chatStarts.waiting, 0);
});
