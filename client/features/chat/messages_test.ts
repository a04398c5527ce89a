import assert from "node:assert/strict";
import type { HistoryEntry } from "../../../shared/api/chat.ts";
import { toStreamEvent } from "../../lib/stream_frames.ts";
import {
  adoptSavedChat,
  applyEvent,
  type ChatMessage,
  endsLoading,
  fromHistory,
  outgoing,
} from "./messages.ts";
import { checkImages, MAX_IMAGE_BYTES } from "./attachments.ts";

function history(pairs: number): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (let id = 1; id <= pairs; id++) {
    entries.push({ role: "user", content: `question ${id}`, sentAt: 0, attachments: [], chatId: id });
    entries.push({
      type: "chat",
      role: "assistant",
      content: `answer ${id}`,
      sources: [],
      chatId: id,
      sentAt: 0,
      feedbackScore: id === 1 ? true : null,
      metrics: {},
    });
  }
  return entries;
}

const chunk = (uuid: string, text: string, close = false) =>
  toStreamEvent({ uuid, sources: [], type: "textResponseChunk", textResponse: text, close, error: false });

Deno.test("a chunk in a thread of 1,000 messages changes only the streaming message", () => {
  const loaded = [...fromHistory(history(499)), ...outgoing("question 500")];
  assert.equal(loaded.length, 1000);
  const first = applyEvent(loaded, chunk("answer-500", "Hel"));
  // The placeholder gave way to the streamed message; every other object is the same one.
  assert.equal(first.length, 1000);
  for (let index = 0; index < 999; index++) assert.equal(first[index], loaded[index], `message ${index}`);
  assert.equal(first[999].content, "Hel");

  const second = applyEvent(first, chunk("answer-500", "lo"));
  assert.notEqual(second, first, "a new list, so React sees the change");
  for (let index = 0; index < 999; index++) assert.equal(second[index], first[index], `message ${index}`);
  assert.notEqual(second[999], first[999]);
  assert.equal(second[999].content, "Hello");
  assert.equal(second[999].animate, true);
  assert.equal(second[999].closed, false);
});

Deno.test("finalize gives the answer and its prompt the chatId and stops loading", () => {
  let messages = applyEvent(outgoing("hi"), chunk("u1", "Hello"));
  messages = applyEvent(messages, {
    uuid: "u1",
    sources: [{ title: "doc.txt", text: "chunk" }],
    type: "textResponseChunk",
    textResponse: "",
    close: true,
    error: false,
  });
  assert.equal(messages[1].sources.length, 1);
  const finalize = toStreamEvent({
    uuid: "u1",
    type: "finalizeResponseStream",
    close: true,
    error: false,
    chatId: 7,
  });
  assert.equal(endsLoading(finalize), true);
  assert.equal(endsLoading(chunk("u1", "x")), false);
  const before = messages;
  messages = applyEvent(messages, finalize);
  assert.deepEqual(messages.map((message) => message.chatId), [7, 7]);
  assert.equal(messages[1].closed, true);
  assert.notEqual(messages[0], before[0]);
});

Deno.test("abort and statusResponse append a closed message; mid-stream the partial answer stays", () => {
  const aborted = applyEvent(
    outgoing("hi"),
    toStreamEvent({
      id: "a",
      uuid: "a",
      type: "abort",
      textResponse: null,
      sources: [],
      close: true,
      error: "Incorrect API key provided",
    }),
  );
  assert.equal(aborted.length, 2, "the placeholder is gone");
  assert.equal(aborted[1].error, "Incorrect API key provided");
  assert.equal(aborted[1].closed, true);

  let midway = applyEvent(outgoing("hi"), chunk("u", "Half an ans"));
  midway = applyEvent(
    midway,
    toStreamEvent({
      id: "u",
      uuid: "u",
      type: "abort",
      textResponse: null,
      sources: [],
      close: true,
      error: "cut",
    }),
  );
  assert.equal(midway.length, 3);
  assert.equal(midway[1].content, "Half an ans");
  assert.equal(midway[1].closed, true);
  assert.equal(midway[2].error, "cut");
  assert.notEqual(midway[1].uuid, midway[2].uuid, "keys stay unique");
  midway = applyEvent(
    midway,
    toStreamEvent({ uuid: "u", type: "finalizeResponseStream", close: true, error: false, chatId: 3 }),
  );
  assert.equal(midway[0].chatId, 3);
  assert.equal(midway[1].chatId, 3);
  assert.equal(midway[2].chatId, undefined);

  const status = toStreamEvent({
    id: "s",
    type: "statusResponse",
    textResponse: "@agent: Swapping over to agent chat.",
    sources: [],
    close: true,
    error: null,
    animate: true,
  });
  assert.equal(status.type, "statusResponse");
  assert.equal(endsLoading(status), true);
  const swapped = applyEvent(outgoing("@agent hi"), status);
  assert.equal(swapped.at(-1)?.content, "@agent: Swapping over to agent chat.");
  assert.equal(swapped.at(-1)?.closed, true);
});

Deno.test("textResponse is a whole message; reset_chat keeps only the last message", () => {
  const earlier = fromHistory(history(3));
  const refusal = applyEvent(
    [...earlier, ...outgoing("?")],
    toStreamEvent({
      id: "r",
      uuid: "r",
      type: "textResponse",
      textResponse: "There is no relevant information in this workspace to answer your query.",
      sources: [],
      close: true,
      error: null,
      chatId: 9,
    }),
  );
  assert.equal(refusal.length, 8);
  assert.equal(refusal.at(-1)?.chatId, 9);
  assert.equal(refusal.at(-2)?.chatId, 9, "the prompt too");

  const reset = toStreamEvent({
    id: "x",
    uuid: "x",
    type: "textResponse",
    textResponse: "Chat memory was reset!",
    sources: [],
    close: true,
    error: false,
    action: "reset_chat",
  });
  assert.equal((reset as { action?: string }).action, "reset_chat", "the action survives parsing");
  const after = applyEvent([...earlier, ...outgoing("/reset")], reset);
  assert.deepEqual(after.map((message) => message.content), ["Chat memory was reset!"]);
});

Deno.test("stopGeneration closes the last answer and marks it stopped, keeping what it has", () => {
  let messages = applyEvent(outgoing("hi"), chunk("u", "Some"));
  messages = [...messages.slice(0, -1), { ...messages[1], sources: [{ text: "x" }] }];
  const stopped = applyEvent(messages, { type: "stopGeneration" });
  assert.equal(stopped[1].closed, true);
  assert.equal(stopped[1].animate, false);
  assert.equal(stopped[1].stopped, true);
  assert.equal(stopped[1].content, "Some");
  assert.deepEqual(stopped[1].sources, [{ text: "x" }]);
  assert.equal(stopped[0], messages[0]);
  // Before the first token only the prompt stays.
  assert.equal(applyEvent(outgoing("hi"), { type: "stopGeneration" }).length, 1);
});

Deno.test("the rename frame has no type and is recognised; unknown frames change nothing", () => {
  const rename = toStreamEvent({ action: "rename_thread", thread: { slug: "t1", name: "What is…" } });
  assert.equal(rename.type, undefined);
  assert.deepEqual((rename as { thread: unknown }).thread, { slug: "t1", name: "What is…" });
  const messages: ChatMessage[] = fromHistory(history(1));
  assert.equal(applyEvent(messages, rename), messages);
  assert.equal(applyEvent(messages, toStreamEvent({ type: "modelRouteNotification" })), messages);
});

Deno.test("history entries keep attachments and feedback", () => {
  const messages = fromHistory([
    {
      role: "user",
      content: "look",
      sentAt: 0,
      attachments: [{ name: "a.png", mime: "image/png", dataUrl: "data:image/png;base64,AAAA" }, {
        bogus: 1,
      }],
      chatId: 4,
    },
    {
      type: "chat",
      role: "assistant",
      content: "seen",
      sources: [],
      chatId: 4,
      sentAt: 0,
      feedbackScore: false,
      metrics: {},
    },
  ]);
  assert.deepEqual(messages[0].attachments, [{
    name: "a.png",
    mime: "image/png",
    dataUrl: "data:image/png;base64,AAAA",
  }]);
  assert.equal(messages[1].feedbackScore, false);
});

Deno.test("after a stop, the saved chat gives the stopped pair its chatId, text, citations and mark", () => {
  const stopped = applyEvent(applyEvent(outgoing("q"), chunk("u", "Part")), { type: "stopGeneration" });
  const cited = { title: "doc.txt", text: "chunk" };
  const saved = history(1).map((entry) =>
    entry.role === "assistant" ? { ...entry, sources: [cited], stopped: true as const } : entry
  );
  const adopted = adoptSavedChat(stopped, saved);
  assert.ok(adopted);
  assert.deepEqual(adopted.map((message) => message.chatId), [1, 1]);
  assert.equal(adopted[1].content, "answer 1");
  assert.deepEqual(adopted[1].sources, [cited]);
  assert.equal(adopted[1].stopped, true);
  const reloaded = fromHistory(saved)[1];
  const { uuid: _adoptedUuid, ...asAdopted } = adopted[1];
  const { uuid: _reloadedUuid, ...asReloaded } = reloaded;
  assert.deepEqual(
    { ...asAdopted, type: asReloaded.type, feedbackScore: asReloaded.feedbackScore },
    asReloaded,
    "as after a reload",
  );
  // An answer that had in fact ended before the stop was saved whole: the mark goes, as after a reload.
  const whole = adoptSavedChat(stopped, history(1));
  assert.equal(whole?.[1].stopped, false);
  assert.equal(adoptSavedChat(fromHistory(saved), saved), null, "nothing to adopt");
  assert.equal(adoptSavedChat(stopped, []), null, "not saved yet");
});

Deno.test("image checks: type, size and count", () => {
  const png = (name: string, size = 10) => new File([new Uint8Array(size)], name, { type: "image/png" });
  const { accepted, rejected } = checkImages([
    png("a.png"),
    new File(["x"], "notes.txt", { type: "text/plain" }),
    png("big.png", MAX_IMAGE_BYTES + 1),
    png("b.png"),
    png("c.png"),
  ], 3);
  assert.deepEqual(accepted.map((file) => file.name), ["a.png", "b.png"]);
  assert.deepEqual(rejected, [
    { name: "notes.txt", reason: "type" },
    { name: "big.png", reason: "size" },
    { name: "c.png", reason: "count" },
  ]);
});

Deno.test("the closing chunk's searchQuery (a rewritten follow-up) stays with the answer, from the stream and the history", () => {
  let messages = applyEvent(outgoing("and its river?"), chunk("u1", "The Zorn."));
  assert.equal(messages[1].searchQuery, undefined);
  messages = applyEvent(
    messages,
    toStreamEvent({
      uuid: "u1",
      sources: [{ title: "freedonia.txt", text: "The Zorn is the longest river of Freedonia." }],
      type: "textResponseChunk",
      textResponse: "",
      close: true,
      error: false,
      searchQuery: "longest river of Freedonia",
    }),
  );
  assert.equal(messages[1].searchQuery, "longest river of Freedonia");
  const [entry, answer] = history(1);
  const loaded = fromHistory([entry, { ...answer, searchQuery: "river of Freedonia" } as HistoryEntry]);
  assert.equal(loaded[1].searchQuery, "river of Freedonia");
  assert.equal(fromHistory(history(1))[1].searchQuery, undefined);
});
