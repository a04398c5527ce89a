// The chat save's cost on the server's one thread: N answers ending together are written by one flush
// (server/chat/history.ts). Compares, alternated round by round on one database file, the server's saveChat
// (one multi-row INSERT) with the former form (a batch of one INSERT per chat, one transaction as well), and
// prints the median main-thread CPU (/proc, Linux) and wall time of a flush. libSQL's local client runs both
// synchronously on this thread, commit and sync of the write-ahead log included.
// BENCH_SAVE_CHATS: chats per flush (62, as one flush of bench/chat.ts's 500 streams); BENCH_SAVE_ROUNDS (16).
import { openDatabase } from "../db/client.ts";
import { workspaceChats, workspaces } from "../db/schema.ts";
import { saveChat } from "../server/chat/history.ts";
import type { Deps } from "../server/deps.ts";
import type { Actor } from "../server/auth/actor.ts";
import { percentile } from "./load.ts";

const CHATS = Number(Deno.env.get("BENCH_SAVE_CHATS") ?? 62);
const ROUNDS = Number(Deno.env.get("BENCH_SAVE_ROUNDS") ?? 16);

const dir = await Deno.makeTempDir({ prefix: "lectern-bench-chat-save-" });
const { db, close } = await openDatabase(`${dir}/lectern.db`);
try {
  const [workspace] = await db.insert(workspaces).values({ name: "Saves", slug: "saves" })
    .returning({ id: workspaces.id });
  const actor = { multiUser: false, userId: null, role: "admin" } as unknown as Actor;
  const scope = { workspaceId: workspace.id, threadId: null, actor };
  // An answer of bench/chat.ts's size: 40 tokens, no sources.
  const response = {
    text: Array.from({ length: 40 }, (_, index) => `t${index} `).join(""),
    sources: [],
    type: "chat",
    attachments: [],
    metrics: { prompt_tokens: 100, completion_tokens: 40, total_tokens: 140, outputTps: 30, duration: 1.2 },
  };
  const deps = { db } as unknown as Deps;
  /** This thread's CPU time so far (milliseconds): the main thread's id is the process's. */
  const threadCpuMs = () =>
    Number(Deno.readTextFileSync(`/proc/self/task/${Deno.pid}/schedstat`).split(" ")[0]) / 1e6;
  const forms: Record<string, () => Promise<unknown>> = {
    "a statement per chat": () => {
      const [first, ...rest] = Array.from({ length: CHATS }, (_, index) =>
        db.insert(workspaceChats).values({
          workspaceId: workspace.id,
          threadId: null,
          userId: null,
          prompt: `question ${index}`,
          response: JSON.stringify(response),
          include: true,
          apiSessionId: null,
        }).returning({ id: workspaceChats.id }));
      return db.batch([first, ...rest]);
    },
    "saveChat (the server's)": () =>
      Promise.all(
        Array.from({ length: CHATS }, (_, index) => saveChat(deps, scope, `question ${index}`, response)),
      ),
  };
  const figures = new Map(
    Object.keys(forms).map((name) => [name, { cpu: [] as number[], wall: [] as number[] }]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(forms);
    if (round % 2) names.reverse();
    for (const name of names) {
      const cpu = threadCpuMs();
      const started = performance.now();
      await forms[name]();
      figures.get(name)!.wall.push(performance.now() - started);
      figures.get(name)!.cpu.push(threadCpuMs() - cpu);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  for (const [name, { cpu, wall }] of figures) {
    console.log(
      `${CHATS} chats, ${name}: main-thread CPU p50 ${percentile(cpu, 50).toFixed(2)} ms, wall p50 ${
        percentile(wall, 50).toFixed(2)
      } ms (${ROUNDS} rounds, alternated)`,
    );
  }
} finally {
  close();
  await Deno.remove(dir, { recursive: true });
}
