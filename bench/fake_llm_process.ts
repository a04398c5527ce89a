// The fake OpenAI-compatible LLM of bench/chat.ts's concurrent streams, in a process of its own, so that its
// timers (one token every TOKEN_GAP_MS per stream) do not wait behind the bench's 500 clients on one JS thread.
// Arguments: tokens, gap in ms. Prints `{"baseURL": …}` once listening. On stdin, "start" begins measuring its
// own event loop's lateness (a 10 ms interval) and "stop" prints `{"lateMs": {p50, p99, max}, "cpuSeconds"}`
// for the time since "start"; stdin closed: the process ends.
import { echoReply, startFakeOpenAi } from "../server/testing/fake_openai.ts";
import { cpuSeconds, LatenessSampler } from "./load.ts";

const [tokens, gapMs] = Deno.args.map(Number);
const llm = startFakeOpenAi();
const isRewrite = (request: { messages: { content: unknown }[] }) =>
  String(request.messages.at(-1)?.content ?? "").endsWith("Standalone search query:");
llm.setReply((request) => {
  // Nothing is kept of the requests: 500 prompts held for nothing.
  llm.chatRequests.length = 0;
  llm.headers.length = 0;
  llm.authorizations.length = 0;
  if (isRewrite(request)) return echoReply(request);
  return { chunks: Array.from({ length: tokens }, (_, index) => `t${index} `), delayMs: gapMs };
});
console.log(JSON.stringify({ baseURL: llm.baseURL }));

let sampler: LatenessSampler | null = null;
let cpuAtStart = 0;
const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
let pending = "";
for await (const text of lines) {
  pending += text;
  const commands = pending.split("\n");
  pending = commands.pop() ?? "";
  for (const command of commands) {
    if (command === "start") {
      sampler = new LatenessSampler();
      cpuAtStart = cpuSeconds("self");
    } else if (command === "stop" && sampler) {
      console.log(JSON.stringify({ lateMs: sampler.stop(), cpuSeconds: cpuSeconds("self") - cpuAtStart }));
      sampler = null;
    }
  }
}
await llm.close();
