// The agent loop over each provider's own tool-calling wire format (Anthropic, Gemini, Ollama), each against its
// loopback fake: a tool call's round trip, a failing tool, the step limit; and the prompted fallback for an
// Ollama model that takes no tools.
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { startFakeOllama } from "../testing/fake_ollama.ts";
import { startFakeGemini } from "../providers/llm/testing/fake_gemini.ts";
import { openAgentSocket, sendChat } from "./testing.ts";

/** What the model is scripted to do next: call a tool, or answer. */
type Move = { call: { name: string; args: Record<string, unknown> } } | { answer: string[] };

/** The tool result a request ends with, as the fake received it (null: the last turn is the person's). */
type ToolResult = { content: string; isError: boolean; name?: string } | null;

interface Wire {
  app: TestApp;
  /** Scripts the model from the tool result its request ends with. */
  script(next: (result: ToolResult) => Move): void;
  /** Requests the fake got so far. */
  count(): number;
  /** The request bodies. */
  bodies(): Record<string, unknown>[];
  [Symbol.asyncDispose](): Promise<void>;
}

async function configured(app: TestApp, settings: Record<string, string>) {
  const saved = await app.json("/api/system/update-env", { json: settings });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const steps = await app.json("/api/agents/settings", { json: { maxSteps: 3 } });
  assert.equal(steps.status, 200, JSON.stringify(steps.body));
}

async function anthropicWire(): Promise<Wire> {
  const fake = startFakeAnthropic({ apiKey: "sk-ant-test" });
  const app = await createTestApp({ providerDeps: { endpoints: { anthropic: fake.baseURL } } });
  await configured(app, {
    LLMProvider: "anthropic",
    AnthropicApiKey: "sk-ant-test",
    AnthropicModelPref: "claude-test-1",
  });
  return {
    app,
    script(next) {
      fake.setReply((body) => {
        const last = (body.messages as { role: string; content: unknown }[]).at(-1)!;
        const blocks = Array.isArray(last.content) ? last.content as Record<string, unknown>[] : [];
        const block = blocks.find((entry) => entry.type === "tool_result");
        const move = next(
          block ? { content: String(block.content), isError: block.is_error === true } : null,
        );
        return "call" in move
          ? { toolCalls: [{ name: move.call.name, input: move.call.args }] }
          : { chunks: move.answer };
      });
    },
    count: () => fake.requests.length,
    bodies: () => fake.requests.map((request) => request.body),
    async [Symbol.asyncDispose]() {
      await app.close();
      await fake.close();
    },
  };
}

async function geminiWire(): Promise<Wire> {
  const fake = startFakeGemini({ apiKey: "AIza-agent" });
  const app = await createTestApp({ providerDeps: { endpoints: { gemini: fake.baseURL } } });
  await configured(app, {
    LLMProvider: "gemini",
    GeminiLLMApiKey: "AIza-agent",
    GeminiLLMModelPref: "gemini-2.5-flash",
  });
  return {
    app,
    script(next) {
      fake.setReply((body) => {
        const last = (body.contents as { parts: Record<string, unknown>[] }[]).at(-1)!;
        const part = last.parts.find((entry) => entry.functionResponse);
        const response = part?.functionResponse as
          | { name: string; response: { result?: string; error?: string } }
          | undefined;
        const move = next(
          response
            ? {
              content: String(response.response.result ?? response.response.error),
              isError: "error" in response.response,
              name: response.name,
            }
            : null,
        );
        return "call" in move
          ? {
            toolCalls: [{ name: move.call.name, args: move.call.args, thoughtSignature: "c2lnbmF0dXJl" }],
            usage: { promptTokenCount: 5, candidatesTokenCount: 1 },
          }
          : { chunks: move.answer };
      });
    },
    count: () => fake.requests.length,
    bodies: () => fake.requests.map((request) => request.body),
    async [Symbol.asyncDispose]() {
      await app.close();
      await fake.close();
    },
  };
}

async function ollamaWire(model = "qwen2.5:7b", withoutTools: string[] = []): Promise<Wire> {
  const fake = startFakeOllama({ models: [model], withoutTools });
  const app = await createTestApp();
  await configured(app, {
    LLMProvider: "ollama",
    OllamaLLMBasePath: fake.baseURL,
    OllamaLLMModelPref: model,
    OllamaLLMTokenLimit: "8192",
  });
  return {
    app,
    script(next) {
      fake.setReply((body) => {
        const last = (body.messages as { role: string; content: string; tool_name?: string }[]).at(-1)!;
        const move = next(
          last.role === "tool"
            ? { content: last.content, isError: last.content.startsWith("Error: "), name: last.tool_name }
            : null,
        );
        return "call" in move
          ? { toolCalls: [{ name: move.call.name, arguments: move.call.args }] }
          : { chunks: move.answer };
      });
    },
    count: () => fake.chatRequests.length,
    bodies: () => fake.chatRequests,
    async [Symbol.asyncDispose]() {
      await app.close();
      await fake.close();
    },
  };
}

async function startSession(app: TestApp, slug: string, message: string) {
  const frames = await sendChat(app, slug, message);
  const init = frames.find((frame) => frame.type === "agentInitWebsocketConnection");
  assert.ok(init, JSON.stringify(frames));
  return openAgentSocket(app.listen(), String(init.websocketUUID));
}

/** A round trip, a failing tool and the step limit, in one agent session over `wire`. */
async function exercise(wire: Wire) {
  const { app } = wire;
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Tools" },
  });
  const slug = created.body.workspace.slug;
  const results: ToolResult[] = [];
  const callThenAnswer = (name: string, args: Record<string, unknown>) =>
    wire.script((result) => {
      if (!result) return { call: { name, args } };
      results.push(result);
      return { answer: ["Tool said: ", result.content] };
    });

  // 1. The call's arguments reach the tool; its result reaches the model in the provider's format.
  callThenAnswer("list-documents", { workspace: slug });
  const socket = await startSession(app, slug, "@agent what documents are there?");
  const answer = await socket.next((message) => message.from === "@agent");
  assert.equal(answer.content, "Tool said: The workspace has no documents.");
  assert.deepEqual(results[0], {
    content: "The workspace has no documents.",
    isError: false,
    ...(results[0]?.name ? { name: "list-documents" } : {}),
  });
  assert.ok(
    socket.messages.some((message) =>
      message.type === "toolCall" && message.name === "list-documents" &&
      JSON.parse(String(message.arguments)).workspace === slug
    ),
  );
  assert.ok(
    socket.messages.some((message) =>
      message.type === "statusResponse" && message.content === "Listing the workspace's documents."
    ),
  );
  const streamed = socket.messages.filter((message) => message.type === "reportStreamEvent")
    .map((message) => (message.content as { content: string }).content).join("");
  assert.equal(streamed, "Tool said: The workspace has no documents.");

  // 2. A failing tool: its error goes to the model (marked as an error) and to the person.
  await socket.next((message) => message.type === "WAITING_ON_INPUT");
  callThenAnswer("summarize-document", { title: "missing.txt" });
  socket.send("summarize missing.txt");
  const failed = await socket.next((message) =>
    message.from === "@agent" && String(message.content).includes("missing.txt")
  );
  const error = 'Error: The workspace has no document titled "missing.txt".';
  assert.equal(failed.content, `Tool said: ${error}`);
  assert.equal(results[1]?.content, error);
  assert.equal(results[1]?.isError, true);
  assert.ok(
    socket.messages.some((message) =>
      message.type === "toolResult" && message.ok === false && message.content === error
    ),
  );

  // 3. A model that keeps calling tools stops at the step limit.
  // The session asks for the next message once per answer: the second time after this one.
  await socket.next((message) =>
    message.type === "WAITING_ON_INPUT" &&
    socket.messages.filter((entry) => entry.type === "WAITING_ON_INPUT").length >= 2
  );
  const before = wire.count();
  wire.script(() => ({ call: { name: "list-documents", args: {} } }));
  socket.send("keep listing");
  const stopped = await socket.next((message) =>
    message.from === "@agent" && String(message.content).startsWith("The agent stopped")
  );
  assert.equal(
    stopped.content,
    "The agent stopped after 3 steps without finishing. Ask again more precisely, or raise the step limit in the agent settings.",
  );
  assert.equal(wire.count() - before, 3);
  socket.send("/exit");
  assert.equal((await socket.closed).code, 1000);
}

Deno.test("Anthropic: tool_use blocks streamed, tool_result blocks sent back, errors marked, the step limit", async () => {
  await using wire = await anthropicWire();
  await exercise(wire);
  const [first, second] = wire.bodies();
  const tools = first.tools as { name: string; input_schema: { type: string } }[];
  assert.ok(tools.some((tool) => tool.name === "list-documents" && tool.input_schema.type === "object"));
  assert.match(String(first.system), /You are an AI agent/);
  // The call went back as the assistant's tool_use block, its result as the next user turn's tool_result.
  const turns = second.messages as { role: string; content: Record<string, unknown>[] }[];
  const use = turns.at(-2)!;
  assert.equal(use.role, "assistant");
  assert.equal(use.content[0].type, "tool_use");
  assert.equal(use.content[0].name, "list-documents");
  assert.equal(typeof (use.content[0].input as Record<string, unknown>).workspace, "string");
  assert.equal(turns.at(-1)!.content[0].tool_use_id, use.content[0].id);
});

Deno.test("Gemini: functionDeclarations offered, functionCall parts run, functionResponse sent back with the signature", async () => {
  await using wire = await geminiWire();
  await exercise(wire);
  const [first, second] = wire.bodies();
  const declarations = (first.tools as { functionDeclarations: Record<string, unknown>[] }[])[0]
    .functionDeclarations;
  const list = declarations.find((entry) => entry.name === "list-documents");
  assert.deepEqual((list?.parametersJsonSchema as { type: string }).type, "object");
  const contents = second.contents as { role: string; parts: Record<string, unknown>[] }[];
  const call = contents.at(-2)!;
  assert.equal(call.role, "model");
  assert.equal((call.parts[0].functionCall as { name: string }).name, "list-documents");
  assert.equal(
    call.parts[0].thoughtSignature,
    "c2lnbmF0dXJl",
    "the thought signature goes back with its call",
  );
  assert.equal(contents.at(-1)!.role, "user");
  assert.deepEqual(contents.at(-1)!.parts[0].functionResponse, {
    name: "list-documents",
    response: { result: "The workspace has no documents." },
  });
});

Deno.test("Ollama: tools offered to /api/chat, tool_calls run, tool messages sent back, the step limit", async () => {
  await using wire = await ollamaWire();
  await exercise(wire);
  const [first, second] = wire.bodies();
  const tools = first.tools as { type: string; function: { name: string } }[];
  assert.ok(tools.some((tool) => tool.type === "function" && tool.function.name === "list-documents"));
  const messages = second.messages as Record<string, unknown>[];
  const call = messages.at(-2)!;
  assert.equal(call.role, "assistant");
  const calls = call.tool_calls as { function: { name: string; arguments: Record<string, unknown> } }[];
  assert.equal(calls[0].function.name, "list-documents");
  assert.equal(typeof calls[0].function.arguments, "object", "arguments go back as an object, not as text");
  assert.deepEqual(messages.at(-1), {
    role: "tool",
    content: "The workspace has no documents.",
    tool_name: "list-documents",
  });
});

Deno.test("Ollama: a model without tool support is prompted for its tool calls instead", async () => {
  await using fake = startFakeOllama({ models: ["gemma3:1b"], withoutTools: ["gemma3:1b"] });
  await using app = await createTestApp();
  await configured(app, {
    LLMProvider: "ollama",
    OllamaLLMBasePath: fake.baseURL,
    OllamaLLMModelPref: "gemma3:1b",
  });
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "Plain" },
  });
  // The prompted model names the tool in a JSON object; the tool's result comes back as a user message.
  fake.setReply((body) => {
    const last = (body.messages as { content: string }[]).at(-1)!;
    return last.content.startsWith("Result of the tool list-documents:")
      ? { chunks: ["Prompted: ", last.content.split("\n")[1]] }
      : { chunks: [JSON.stringify({ tool: "list-documents", arguments: {} })] };
  });
  const socket = await startSession(app, created.body.workspace.slug, "@agent list the documents");
  const answer = await socket.next((message) => message.from === "@agent");
  assert.equal(answer.content, "Prompted: The workspace has no documents.");
  const sent = fake.chatRequests as { tools?: unknown; messages: { role: string; content: string }[] }[];
  assert.equal(sent.length, 3, "one refused request with tools, then two prompted ones");
  assert.ok(sent[0].tools, "tools are offered first");
  assert.equal(sent[1].tools, undefined, "then the model is prompted");
  assert.match(sent[1].messages[0].content, /To use a tool, answer with only a JSON object/);
  assert.equal(sent[2].tools, undefined, "and not offered tools again");
  socket.send("/exit");
  await socket.closed;
});
