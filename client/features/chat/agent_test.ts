import assert from "node:assert/strict";
import {
  AGENT_STATUS,
  AGENT_TOOL,
  agentProtocols,
  type AgentSocketEvent,
  agentSocketUrl,
  agentTurnEnded,
  applyAgentEvent,
} from "./agent.ts";
import type { ChatMessage } from "./messages.ts";

const prompt: ChatMessage = {
  uuid: "prompt",
  content: "@agent chart the sales",
  role: "user",
  sources: [],
  closed: true,
  error: null,
  animate: false,
  pending: false,
};
const placeholder: ChatMessage = {
  ...prompt,
  uuid: "pending",
  role: "assistant",
  content: "",
  pending: true,
};

const run = (events: AgentSocketEvent[], start: ChatMessage[] = [prompt, placeholder]) =>
  events.reduce(applyAgentEvent, start);

Deno.test("agent session: status lines and tool calls are small lines; the placeholder goes at the first", () => {
  const list = run([
    { type: "statusResponse", content: "@agent is working with gpt-test.", animate: true },
    { type: "toolCall", id: "c1", name: "create-chart", arguments: '{"type":"bar"}' },
    { type: "toolCall", id: "c2", name: "list-documents", arguments: "{}" },
  ]);
  assert.deepEqual(list.map((message) => [message.type ?? message.role, message.content]), [
    ["user", "@agent chart the sales"],
    [AGENT_STATUS, "@agent is working with gpt-test."],
    [AGENT_TOOL, 'create-chart {"type":"bar"}'],
    [AGENT_TOOL, "list-documents"],
  ]);
  assert.ok(list.every((message) => !message.pending));
  assert.equal(new Set(list.map((message) => message.uuid)).size, 4, "each line has its own uuid");
});

Deno.test("agent session: streamed text grows one answer, which moves below the tool lines when it ends", () => {
  const chunk = (content: string) => ({
    type: "reportStreamEvent",
    content: { type: "textResponseChunk", uuid: "a1", content },
  });
  const streaming = run([chunk("Here "), chunk("it is")]);
  const answer = streaming.at(-1)!;
  assert.equal(answer.uuid, "a1");
  assert.equal(answer.content, "Here it is");
  assert.equal(answer.closed, false);
  assert.equal(answer.animate, true);

  const done = run([
    { type: "toolCall", id: "c1", name: "create-chart", arguments: "{}" },
    {
      from: "@agent",
      to: "USER",
      content: "Here it is\n\n```chart\n{}\n```",
      uuid: "a1",
      chatId: 7,
      sources: [],
    },
  ], streaming);
  assert.deepEqual(done.map((message) => message.type ?? message.uuid), ["prompt", AGENT_TOOL, "a1"]);
  const final = done.at(-1)!;
  assert.equal(final.closed, true);
  assert.equal(final.content, "Here it is\n\n```chart\n{}\n```");
  assert.equal(final.chatId, 7);
  // The prompt takes the saved chat's id (edit, delete).
  assert.equal(done[0].chatId, 7);
});

Deno.test("agent session: a second answer gives its id to its own prompt only; sources are kept", () => {
  const first = run([{ from: "@agent", content: "One.", uuid: "a1", chatId: 1, sources: [] }]);
  const followUp: ChatMessage = { ...prompt, uuid: "p2", content: "and more", chatId: undefined };
  const sources = [{ title: "a.txt", text: "passage" }];
  const second = run([{ from: "@agent", content: "Two.", uuid: "a2", chatId: 2, sources }], [
    ...first,
    followUp,
  ]);
  assert.deepEqual(second.map((message) => [message.uuid, message.chatId]), [
    ["prompt", 1],
    ["a1", 1],
    ["p2", 2],
    ["a2", 2],
  ]);
  assert.deepEqual(second.at(-1)!.sources, sources);
});

Deno.test("agent session: a failure is an error line and ends the turn; unknown messages change nothing", () => {
  const failed = run([{ type: "wssFailure", content: "The agent did not finish within 5 seconds." }]);
  const last = failed.at(-1)!;
  assert.equal(last.type, "abort");
  assert.equal(last.error, "The agent did not finish within 5 seconds.");
  assert.ok(agentTurnEnded({ type: "wssFailure", content: "x" }));
  assert.ok(agentTurnEnded({ type: "WAITING_ON_INPUT", question: "Next?" }));
  assert.ok(!agentTurnEnded({ type: "statusResponse", content: "x" }));

  const settled = [prompt];
  assert.equal(applyAgentEvent(settled, { type: "WAITING_ON_INPUT" }), settled);
  assert.equal(applyAgentEvent(settled, { type: "toolCall" }), settled, "a tool call without a name");
  assert.equal(
    applyAgentEvent(settled, { type: "reportStreamEvent", content: { uuid: 3 } }),
    settled,
    "a chunk without text",
  );
});

Deno.test("agent session: the socket's address follows the page's scheme; the token rides as a subprotocol", () => {
  assert.equal(
    agentSocketUrl({ protocol: "https:", host: "docs.example:8443" }, "a b"),
    "wss://docs.example:8443/api/agent-invocation/a%20b",
  );
  assert.equal(
    agentSocketUrl({ protocol: "http:", host: "127.0.0.1:3001" }, "u1"),
    "ws://127.0.0.1:3001/api/agent-invocation/u1",
  );
  assert.deepEqual(agentProtocols("tok"), ["lectern-agent", "bearer.tok"]);
  assert.deepEqual(agentProtocols(null), ["lectern-agent"]);
});
