import assert from "node:assert/strict";
import {
  type ChatAction,
  chatReducer,
  type ChatState,
  EMPTY_CHAT,
  historyMessages,
  splitThoughts,
} from "./chat.ts";
import { abortFrame, toFrame } from "./frames.ts";

const run = (actions: ChatAction[], from: ChatState = EMPTY_CHAT) => actions.reduce(chatReducer, from);
const frame = (data: Record<string, unknown>): ChatAction => ({ type: "frame", frame: toFrame(data)! });
const send = (text: string, n = 1): ChatAction => ({ type: "send", text, userId: `u${n}`, replyId: `r${n}` });
const SOURCE = { title: "freedonia.txt", text: "Freedonia exports cheese." };

Deno.test("chat: a streamed answer grows chunk by chunk, gets its sources on the closing chunk and ends", () => {
  let state = run([send("  What does Freedonia export?  ")]);
  assert.equal(state.busy, true);
  assert.deepEqual(state.messages.map((m) => [m.role, m.content, m.pending]), [
    ["user", "What does Freedonia export?", false],
    ["assistant", "", true],
  ]);
  state = run([
    frame({
      uuid: "a",
      type: "textResponseChunk",
      textResponse: "Cheese ",
      sources: [],
      close: false,
      error: false,
    }),
    frame({ uuid: "a", type: "textResponseChunk", textResponse: "and violins.", sources: [], close: false }),
  ], state);
  const answer = state.messages[1];
  assert.equal(answer.content, "Cheese and violins.");
  assert.equal(answer.pending, false);
  assert.equal(answer.streaming, true);
  assert.equal(answer.uuid, "a");
  state = run([
    frame({
      uuid: "a",
      type: "textResponseChunk",
      textResponse: "",
      sources: [SOURCE],
      close: true,
      error: false,
    }),
  ], state);
  assert.deepEqual(state.messages[1].sources, [{
    title: "freedonia.txt",
    url: null,
    text: "Freedonia exports cheese.",
  }]);
  assert.equal(state.messages[1].streaming, false);
  assert.equal(state.busy, true, "busy until the stream is finalized");
  state = run(
    [frame({ uuid: "a", type: "finalizeResponseStream", close: true, error: false, chatId: 9 })],
    state,
  );
  assert.equal(state.busy, false);
  assert.equal(state.messages.length, 2);
});

Deno.test("chat: a whole textResponse (query mode's refusal) replaces the placeholder", () => {
  const state = run([
    send("Hi"),
    frame({
      id: "q",
      uuid: "q",
      type: "textResponse",
      textResponse: "There is no relevant information in this workspace to answer your query.",
      sources: [],
      close: true,
      error: null,
    }),
  ]);
  assert.equal(state.busy, false);
  assert.equal(
    state.messages[1].content,
    "There is no relevant information in this workspace to answer your query.",
  );
});

Deno.test("chat: an abort shows the server's message on the answer; a second question is then possible", () => {
  let state = run([send("Hi"), {
    type: "frame",
    frame: abortFrame("Your quota for this chat has been reached."),
  }]);
  assert.equal(state.busy, false);
  assert.equal(state.messages[1].error, "Your quota for this chat has been reached.");
  assert.equal(state.messages[1].pending, false);
  state = run([send("Again", 2)], state);
  assert.equal(state.messages.length, 4);
  // An abort in the middle of an answer keeps what came.
  state = run([
    frame({ uuid: "b", type: "textResponseChunk", textResponse: "Half", sources: [], close: false }),
    { type: "frame", frame: abortFrame("The answer stopped.") },
  ], state);
  assert.equal(state.messages[3].content, "Half");
  assert.equal(state.messages[3].error, "The answer stopped.");
});

Deno.test("chat: one question at a time, empty ones are not sent, and ended closes what is open", () => {
  let state = run([send("   ")]);
  assert.equal(state, EMPTY_CHAT);
  state = run([send("One"), send("Two", 2)]);
  assert.equal(state.messages.length, 2, "the second waits for the first");
  state = run([{ type: "ended" }], state);
  assert.equal(state.busy, false);
  assert.equal(state.messages[1].pending, false);
  assert.equal(state.messages[1].streaming, false);
  assert.deepEqual(run([{ type: "reset" }], state), { ...EMPTY_CHAT, cleared: true });
});

Deno.test("chat: history as the server answers it; it does not replace a question already asked", () => {
  const entries = [
    { role: "user", content: "Hello", sentAt: 1, attachments: [], chatId: 1 },
    { type: "chat", role: "assistant", content: "Hi there.", sources: [SOURCE], chatId: 1, sentAt: 1 },
    { role: "system", content: "skipped" },
    "junk",
    { role: "assistant" },
  ];
  const messages = historyMessages(entries);
  assert.deepEqual(messages.map((m) => [m.role, m.content, m.sources.length]), [
    ["user", "Hello", 0],
    ["assistant", "Hi there.", 1],
  ]);
  assert.equal(run([{ type: "history", entries }]).messages.length, 2);
  const asked = run([send("Now"), { type: "history", entries }]);
  assert.equal(asked.messages[0].content, "Now");
  // Reset before the history arrived: the late history is the conversation just cleared.
  assert.deepEqual(run([{ type: "reset" }, { type: "history", entries }]).messages, []);
  assert.equal(
    run([{ type: "reset" }, send("Again"), { type: "history", entries }]).messages[0].content,
    "Again",
  );
});

Deno.test("chat: frames for an answer the widget does not hold start a new message; a stray finalize is ignored", () => {
  let state = run([
    send("Hi"),
    frame({ uuid: "a", type: "textResponse", textResponse: "One.", sources: [] }),
  ]);
  state = run([frame({ uuid: "z", type: "finalizeResponseStream", close: true })], state);
  assert.equal(state.messages.length, 2);
  state = run([
    frame({ uuid: "z", type: "textResponseChunk", textResponse: "Extra", sources: [], close: true }),
  ], state);
  assert.equal(state.messages.length, 3);
  assert.equal(state.messages[2].content, "Extra");
});

Deno.test("chat: <think> blocks are kept out of the answer's text, also while they stream", () => {
  assert.deepEqual(splitThoughts("<think>Plan it.</think>The answer."), {
    text: "The answer.",
    thoughts: ["Plan it."],
  });
  assert.deepEqual(splitThoughts("<think>Still planning"), { text: "", thoughts: ["Still planning"] });
  assert.deepEqual(splitThoughts("Plain."), { text: "Plain.", thoughts: [] });
});
