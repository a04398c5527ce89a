// The host side of scripts/aarch64_smoke.sh: starts the aarch64 Lectern under qemu-user on a fresh storage (its
// address is 127.0.0.1), a fake OpenAI-compatible server on 127.0.0.1, then uploads a text file, embeds it with
// the built-in embedder, chats and checks the answer and its sources. Exits 1 with the reason on a failure.
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServerProcess } from "../server/testing/process.ts";
import { startFakeOpenAi } from "../server/testing/fake_openai.ts";
import { genericOpenAiSettings } from "../server/testing/test_app.ts";

function required(name: string): string {
  const value = Deno.env.get(name);
  if (!value) {
    console.error(`${name} is not set: run scripts/aarch64_smoke.sh.`);
    Deno.exit(2);
  }
  return value;
}

const qemu = required("AARCH64_QEMU");
const armDeno = required("AARCH64_DENO");
const project = required("AARCH64_PROJECT");
const timeoutSeconds = Number(Deno.env.get("AARCH64_SMOKE_TIMEOUT") ?? "900");
const started = Date.now();
const say = (text: string) =>
  console.log(`[aarch64-smoke] ${text} (${((Date.now() - started) / 1000).toFixed(0)}s)`);

async function json(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

const storage = await Deno.makeTempDir({ prefix: "lectern-aarch64-storage-" });
await using llm = startFakeOpenAi();
try {
  await using server = await startServerProcess(
    {
      STORAGE_DIR: storage,
      DENO_DIR: Deno.env.get("AARCH64_DENO_DIR") ?? join(project, "..", "deno-dir"),
      QEMU_LD_PREFIX: Deno.env.get("QEMU_LD_PREFIX") ?? "/usr/aarch64-linux-gnu",
    },
    timeoutSeconds * 1000,
    {
      // The project copy's server, run by the aarch64 Deno under qemu instead of the host's.
      wrap: () => [
        qemu,
        armDeno,
        "run",
        "-A",
        "--config",
        join(project, "deno.json"),
        join(project, "server/main.ts"),
      ],
    },
  );
  say(`the aarch64 server answers /api/ping at ${server.url}`);

  const saved = await json(`${server.url}/api/system/update-env`, {
    method: "POST",
    body: JSON.stringify(genericOpenAiSettings(llm.baseURL)),
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const workspace = await json(`${server.url}/api/workspace/new`, {
    method: "POST",
    body: JSON.stringify({ name: "Arm" }),
  });
  assert.equal(workspace.status, 200, JSON.stringify(workspace.body));
  const slug = workspace.body.workspace.slug as string;

  const form = new FormData();
  form.append(
    "file",
    new File(
      ["Lapwings nest on open ground and defend their eggs by feigning a broken wing."],
      "lapwings.txt",
    ),
  );
  const upload = await json(`${server.url}/api/workspace/${slug}/upload-and-embed`, {
    method: "POST",
    body: form,
  });
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  assert.equal(upload.body.success, true, JSON.stringify(upload.body));
  const details = await json(`${server.url}/api/workspace/${slug}`);
  assert.equal(details.body.workspace.documents.length, 1, "the document is embedded in the workspace");
  say("uploaded and embedded lapwings.txt with the built-in embedder");

  const chat = await fetch(`${server.url}/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message: "How do lapwings defend their eggs?" }),
  });
  assert.equal(chat.status, 200);
  const frames = (await chat.text()).split("\n").filter((line) => line.startsWith("data: ")).map((line) =>
    JSON.parse(line.slice("data: ".length))
  );
  const answer = frames.map((frame) => frame.textResponse ?? "").join("");
  assert.equal(answer, "You asked: How do lapwings defend their eggs?. I saw 1 context blocks.");
  const sources = frames.flatMap((frame) => frame.sources ?? []);
  assert.deepEqual(sources.map((source: { title: string }) => source.title), ["lapwings.txt"]);
  const systemPrompt = llm.chatRequests.at(-1)?.messages[0]?.content ?? "";
  assert.match(systemPrompt, /feigning a broken wing/, "the document's text reached the model as context");
  say("chatted through the fake OpenAI-compatible server: the answer and its source are right");

  const history = await json(`${server.url}/api/workspace/${slug}/chats`);
  assert.equal(history.body.history.length, 2);
  assert.equal(history.body.history[1].sources[0].title, "lapwings.txt");
  server.child.kill("SIGTERM");
  assert.equal(await server.exited(), 0, server.output());
  say("the server stopped cleanly on SIGTERM");
} catch (error) {
  console.error(`[aarch64-smoke] FAILED: ${error instanceof Error ? error.stack : error}`);
  Deno.exitCode = 1;
} finally {
  await Deno.remove(storage, { recursive: true }).catch(() => {});
}
