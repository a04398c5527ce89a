import assert from "node:assert/strict";
import { buildMessages, expandVariables, fitPrompt, systemMessage } from "./prompt.ts";

Deno.test("expandVariables() fills the date, user and workspace and leaves unknown names", () => {
  const text = expandVariables("{date} {time_24} {workspace.name} #{workspace.id} {user.name} {unknown}", {
    now: new Date("2026-03-04T05:06:07"),
    user: { id: 7, name: "ada" },
    workspace: { id: 3, name: "Atlas" },
  });
  assert.equal(text, "March 4, 2026 05:06 Atlas #3 ada {unknown}");
});

Deno.test("systemMessage() appends each context block as the reference does", () => {
  assert.equal(systemMessage("Prompt", []), "Prompt");
  assert.equal(
    systemMessage("Prompt", ["one", "two"]),
    "Prompt\nContext:\n[CONTEXT 0]:\none\n[END CONTEXT 0]\n\n[CONTEXT 1]:\ntwo\n[END CONTEXT 1]\n\n",
  );
});

Deno.test("fitPrompt() drops old turns, then context, then shortens; the prompt always fits", async () => {
  const { tokenCounter } = await import("../documents/tokens.ts");
  const { countMessageTokens } = await import("./prompt.ts");
  const count = await tokenCounter();
  const turn = (index: number) => ({
    prompt: `question ${index} `.repeat(50),
    response: `answer ${index} `.repeat(50),
  });
  const parts = {
    system: "You are helpful. ".repeat(20),
    contexts: ["first context ".repeat(100), "second context ".repeat(100)],
    history: [turn(1), turn(2), turn(3)],
    message: "now? ".repeat(20),
  };
  const all = await fitPrompt(parts, 100_000, 500);
  assert.equal(all.history.length, 3);
  assert.equal(all.contexts.length, 2);
  const some = await fitPrompt(parts, 1200, 200);
  assert.ok(some.history.length < 3, `kept ${some.history.length} turns`);
  if (some.history.length > 0) assert.equal(some.history.at(-1), parts.history[2], "the newest turns stay");
  assert.ok(countMessageTokens(buildMessages(some), count) <= 1000);
  const tiny = await fitPrompt({ ...parts, message: "a very long message ".repeat(500) }, 600, 100);
  assert.deepEqual(tiny.history, []);
  assert.deepEqual(tiny.contexts, []);
  assert.match(tiny.message, /\[…\]/, "the middle of the message is cut");
  assert.ok(countMessageTokens(buildMessages(tiny), count) <= 500, "it fits");
  assert.deepEqual(buildMessages(tiny).map((message) => message.role), ["system", "user"]);
});

Deno.test("expandVariables() fills the admin's variables once, lets built-in names win and ignores inherited names", () => {
  const text = expandVariables("{company} {date} {toString} {constructor} {city}", {
    now: new Date("2026-03-04T05:06:07"),
    workspace: { id: 3, name: "Atlas" },
    custom: { company: "Acme {workspace.name}", date: "not the date", city: "Paris" },
  });
  assert.equal(text, "Acme {workspace.name} March 4, 2026 {toString} {constructor} Paris");
});

Deno.test("countMessageTokens() counts a recent message text once per counter, with the same total", async () => {
  const { countMessageTokens } = await import("./prompt.ts");
  const seen: string[] = [];
  const count = (text: string) => {
    seen.push(text);
    return text.split(" ").length;
  };
  const history = [{ role: "user" as const, content: "an earlier question here" }, {
    role: "assistant" as const,
    content: "its answer",
  }];
  const first = countMessageTokens([...history, { role: "user", content: "one" }], count);
  assert.equal(first, 4 + 2 + 1 + 3 * 4);
  assert.equal(seen.length, 3);
  const second = countMessageTokens([...history, { role: "user", content: "two words" }], count);
  assert.equal(second, 4 + 2 + 2 + 3 * 4);
  assert.deepEqual(seen.slice(3), ["two words"], "the history is not counted again");
  // Another counter counts for itself.
  const other = countMessageTokens(history, (text) => text.length);
  assert.equal(other, "an earlier question here".length + "its answer".length + 8);
});

Deno.test("tokensAtMost() is never below the cl100k count, whatever the text", async () => {
  const { tokensAtMost } = await import("./prompt.ts");
  const { tokenCounter } = await import("../documents/tokens.ts");
  const count = await tokenCounter();
  // A seeded generator: the same texts every run.
  let seed = 21;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabets = [
    "abcdefghijklmnopqrstuvwxyz     .,;",
    "0123456789=+/-_",
    "éüßøç àèìòù",
    "日本語の文章を書きます",
    "😀🎉🦀👩‍💻",
    "<|endoftext|><|fim_prefix|>",
    "\n\t \u00a0",
  ];
  const texts = [
    "",
    "Where does the heron meet the river in section 37?",
    "=".repeat(5_000),
    "QUJD".repeat(700),
    "<|endoftext|>".repeat(50),
    "日本語".repeat(400),
    "😀".repeat(300),
    `${"a".repeat(257)} ${"b".repeat(513)} ${"c".repeat(256)}`,
  ];
  for (let index = 0; index < 150; index++) {
    const alphabet = [...alphabets[Math.floor(random() * alphabets.length)]];
    const length = Math.floor(random() * 2_000);
    texts.push(Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""));
  }
  for (const text of texts) {
    const counted = count(text);
    assert.ok(
      tokensAtMost(text) >= counted,
      `${tokensAtMost(text)} < ${counted} for ${JSON.stringify(text.slice(0, 40))}`,
    );
  }
  assert.equal(tokensAtMost("heron"), 5 + 1);
  assert.equal(tokensAtMost("é"), 2 + 1);
  assert.equal(tokensAtMost("日"), 3 + 1);
});

Deno.test("fitPrompt() counts nothing when the prompt fits for sure, and counts when it may not", async () => {
  const { tokenCounter } = await import("../documents/tokens.ts");
  const exact = await tokenCounter();
  const counted: string[] = [];
  const count = (text: string) => {
    counted.push(text);
    return exact(text);
  };
  const parts = {
    system: "You answer from the context.",
    contexts: ["The heron meets the river at the granite bridge. ".repeat(20)],
    history: [{ prompt: "Where is the bridge?", response: "By the meadow." }],
    message: "And the heron?",
  };
  const roomy = await fitPrompt(parts, 8_192, 256, count);
  assert.deepEqual(counted, [], "nothing counted");
  assert.deepEqual(roomy, parts);
  // Under the bytes, over the tokens: counted, and kept whole since it fits.
  const bytes = buildMessages(parts).reduce((sum, message) => sum + message.content.length + 4, 0);
  const tokens = buildMessages(parts).reduce((sum, message) => sum + exact(message.content) + 4, 0);
  assert.ok(tokens < bytes / 2);
  const close = await fitPrompt(parts, tokens + 100, 100, count);
  assert.ok(counted.length > 0, "counted");
  assert.deepEqual(close, parts);
  // Over the tokens: the context goes, as without the shortcut.
  const tight = await fitPrompt(parts, tokens + 50, 100, count);
  assert.deepEqual(tight.contexts, []);
});
