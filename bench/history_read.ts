// A chat's history read (issue 21's account of the server's share of time to first token): the last 20 chats of a
// thread whose answers each cite four chunks of 1,000 characters (as in bench/chat.ts), read as the chat reads
// them (recentExchanges: three columns, each answer parsed once while recent) and as it read them before (every
// column, every answer parsed each time). CPU time of this process per read, both ways alternated (A B A B), so
// the figures hold on a loaded machine.
import type { Actor } from "../server/auth/actor.ts";
import { parseResponse, recentChats, recentExchanges, saveChat } from "../server/chat/history.ts";
import { createTestApp } from "../server/testing/test_app.ts";

const READS = Number(Deno.env.get("BENCH_READS") ?? 400);

/** CPU milliseconds (user + system) this process has used so far. */
function cpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

await using app = await createTestApp();
const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
  json: { name: "History" },
});
const actor = { multiUser: false, userId: null, role: "admin" } as unknown as Actor;
const scope = { workspaceId: created.body.workspace.id, threadId: null, actor };
const chunk = (index: number) => `Section ${index}. ${"river heron lantern granite orchard ".repeat(28)}`;
for (let index = 0; index < 20; index++) {
  await saveChat(app.deps, scope, `Where does the heron meet the river in section ${index}?`, {
    text: Array.from({ length: 40 }, (_, token) => `t${token} `).join(""),
    sources: Array.from({ length: 4 }, (_, source) => ({
      id: `chunk-${index}-${source}`,
      title: "big.txt",
      text: chunk(index * 4 + source),
      score: 0.5,
    })),
    type: "chat",
    attachments: [],
    metrics: { prompt_tokens: 1200, completion_tokens: 40 },
  });
}

const ways = {
  "every column, parsed each time": async () =>
    (await recentChats(app.deps, scope, 20)).flatMap((row) => {
      const response = parseResponse(row);
      return response ? [{ prompt: row.prompt, response }] : [];
    }),
  "three columns, parsed once": () => recentExchanges(app.deps, scope, 20),
};
const spent = new Map<string, number>();
for (let round = -1; round < 4; round++) {
  for (const [name, read] of Object.entries(ways)) {
    const started = cpuMs();
    for (let index = 0; index < READS; index++) await read();
    if (round >= 0) spent.set(name, (spent.get(name) ?? 0) + cpuMs() - started);
  }
}
for (const [name, ms] of spent) {
  console.log(`history read, ${name}: ${(ms / (4 * READS)).toFixed(3)} ms of CPU per read`);
}
