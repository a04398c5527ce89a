// A file of cases for child_tests_test.ts (its name does not end in _test.ts: only a child process runs it).
// CHILD_FIXTURE=die ends the process in the middle of its second case, as a native crash would.
Deno.test("a case that passes", () => {});
Deno.test("a case that fails", () => {
  if (Deno.env.get("CHILD_FIXTURE") === "die") Deno.kill(Deno.pid, "SIGKILL");
  throw new Error("the fixture's failure # with a hash");
});
Deno.test({ name: "a case that is ignored", ignore: true, fn() {} });
Deno.test("a case with steps", async (t) => {
  await t.step("an inner step", () => {});
});
