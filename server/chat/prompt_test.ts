import assert from "node:assert/strict";
import { buildMessages, expandVariables, fitHistory, systemMessage } from "./prompt.ts";

Deno.test("expandVariables() fills the date, user and workspace and leaves unknown names", () => {
  const text = expandVariables("{date} {time_24} {workspace.name} #{workspace.id} {user.name} {unknown}", {
    now: new Date("2026-03-04T05:06:07"),
    user: { id: 7, name: "ada" },
    workspace: { id: 3, name: "Atlas" },
  });
  assert.equal(text, "March 4, 2026 05:06 Atlas #3 ada {unknown}");
});

Deno.test("systemMessage() appends each context block as api-contract §8.4 step 7", () => {
  assert.equal(systemMessage("Prompt", []), "Prompt");
  assert.equal(
    systemMessage("Prompt", ["one", "two"]),
    "Prompt\nContext:\n[CONTEXT 0]:\none\n[END CONTEXT 0]\n\n[CONTEXT 1]:\ntwo\n[END CONTEXT 1]\n\n",
  );
});

Deno.test("fitHistory() drops the oldest turns first until the prompt fits the window", async () => {
  const turn = (index: number) => ({
    prompt: `question ${index} `.repeat(50),
    response: `answer ${index} `.repeat(50),
  });
  const parts = { system: "system", history: [turn(1), turn(2), turn(3)], message: "now?" };
  const all = await fitHistory(parts, 100_000, 500);
  assert.equal(all.history.length, 3);
  const some = await fitHistory(parts, 900, 200);
  assert.ok(some.history.length > 0 && some.history.length < 3, `kept ${some.history.length}`);
  assert.equal(some.history.at(-1), parts.history[2], "the newest turns stay");
  const none = await fitHistory(parts, 50, 10);
  assert.deepEqual(none.history, []);
  assert.deepEqual(buildMessages(none).map((message) => message.role), ["system", "user"]);
});
