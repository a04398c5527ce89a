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
