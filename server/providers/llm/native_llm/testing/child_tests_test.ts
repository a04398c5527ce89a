import assert from "node:assert/strict";
import { type ChildRun, childTestSteps, parseTap, runChildTests, verdictOf } from "./child_tests.ts";

const FIXTURE = new URL("./child_fixture_cases.ts", import.meta.url);

Deno.test("a child run reports each top-level case, with a failure's message, then the plan", async () => {
  const run = await runChildTests(FIXTURE);
  assert.deepEqual(run.cases.map(({ name, ok, skipped }) => ({ name, ok, skipped })), [
    { name: "a case that passes", ok: true, skipped: false },
    { name: "a case that fails", ok: false, skipped: false },
    { name: "a case that is ignored", ok: true, skipped: true },
    { name: "a case with steps", ok: true, skipped: false },
  ]);
  assert.match(run.cases[1].detail ?? "", /the fixture's failure # with a hash/);
  assert.equal(run.planned, 4);
  assert.deepEqual([run.code, run.signal], [1, null]);
  assert.deepEqual(verdictOf(run), { kind: "clean" });
});

Deno.test("a child that dies in the middle of its cases is cut short, and says how it ended", async () => {
  const run = await runChildTests(FIXTURE, { CHILD_FIXTURE: "die" });
  assert.deepEqual(run.cases.map((testCase) => testCase.name), ["a case that passes"]);
  assert.equal(run.planned, null);
  assert.equal(run.signal, "SIGKILL");
  const verdict = verdictOf(run);
  assert.equal(verdict.kind, "cut-short");
  assert.match(
    verdict.kind === "cut-short" ? verdict.reason : "",
    /\(killed by SIGKILL\) after reporting 1 case/,
  );
});

Deno.test("TAP lines: escaped names, skipped cases, nested steps and diagnostics", () => {
  const { cases, planned } = parseTap([
    "TAP version 14",
    "# ./file.ts",
    "ok 1 - plain",
    "not ok 2 - with \\# hash and \\\\ backslash",
    "  ---",
    '  {"message":"AssertionError: 1 !== 2","severity":"fail"}',
    "  ...",
    "ok 3 - skipped # SKIP",
    "# Subtest: outer",
    "    not ok 1 - inner",
    "    1..1",
    "not ok 4 - outer",
    "  ---",
    "  not JSON",
    "  ...",
    "1..4",
  ].join("\n"));
  assert.deepEqual(cases, [
    { name: "plain", ok: true, skipped: false },
    { name: "with # hash and \\ backslash", ok: false, skipped: false, detail: "AssertionError: 1 !== 2" },
    { name: "skipped", ok: true, skipped: true },
    { name: "outer", ok: false, skipped: false, detail: "not JSON" },
  ]);
  assert.equal(planned, 4);
});

const passed = (names: string[]) => names.map((name) => ({ name, ok: true, skipped: false }));
const run = (overrides: Partial<ChildRun>): ChildRun => ({
  cases: passed(["a", "b"]),
  planned: 2,
  code: 0,
  signal: null,
  stderr: "",
  ...overrides,
});

Deno.test("the verdict: a crash after every case reported is told apart from one before", () => {
  assert.deepEqual(verdictOf(run({})), { kind: "clean" });
  assert.deepEqual(
    verdictOf(run({ cases: [{ name: "a", ok: false, skipped: false }, ...passed(["b"])], code: 1 })),
    { kind: "clean" },
  );
  for (const ending of [{ signal: "SIGSEGV" as const, code: 139 }, { code: 1 }, { code: 134 }]) {
    assert.equal(verdictOf(run(ending)).kind, "crashed-after", JSON.stringify(ending));
  }
  assert.equal(verdictOf(run({ planned: null })).kind, "cut-short");
  assert.equal(verdictOf(run({ planned: 3 })).kind, "cut-short");
  assert.equal(verdictOf(run({ cases: [], planned: 0 })).kind, "cut-short");
});

/** A stand-in for Deno.TestContext that records each step's outcome. */
function recorder() {
  const steps: { name: string; ignored: boolean; error?: string }[] = [];
  const t = {
    name: "parent",
    async step(definition: Deno.TestStepDefinition) {
      const entry: { name: string; ignored: boolean; error?: string } = {
        name: definition.name,
        ignored: Boolean(definition.ignore),
      };
      steps.push(entry);
      if (entry.ignored) return true;
      try {
        await definition.fn({} as Deno.TestContext);
        return true;
      } catch (error) {
        entry.error = (error as Error).message;
        return false;
      }
    },
  } as Pick<Deno.TestContext, "name" | "step">;
  return { t, steps };
}

Deno.test("each child case becomes a step that fails as it failed; a cut-short child fails the test", async () => {
  const { t, steps } = recorder();
  await childTestSteps(t, FIXTURE);
  assert.deepEqual(steps.map(({ name, ignored, error }) => [name, ignored, error !== undefined]), [
    ["a case that passes", false, false],
    ["a case that fails", false, true],
    ["a case that is ignored", true, false],
    ["a case with steps", false, false],
  ]);
  assert.match(steps[1].error!, /^In the child process: .*the fixture's failure/);

  const cut = recorder();
  await assert.rejects(
    () => childTestSteps(cut.t, FIXTURE, { run: () => Promise.resolve(run({ planned: null, code: 1 })) }),
    /ended \(exit code 1\) after reporting 2 case\(s\) and no plan/,
  );
  assert.equal(cut.steps.length, 2, "the cases reported before still count");
});

Deno.test("a child that crashed after all its cases passed is logged, not failed", async () => {
  const { t, steps } = recorder();
  const logged: string[] = [];
  await childTestSteps(t, FIXTURE, {
    run: () => Promise.resolve(run({ signal: "SIGSEGV", code: 139, stderr: "a native crash" })),
    log: (line) => logged.push(line),
  });
  assert.equal(steps.length, 2);
  assert.equal(logged.length, 1);
  assert.match(
    logged[0],
    /^parent: .*\(killed by SIGSEGV\) after all its 2 case\(s\) reported.*\na native crash$/s,
  );
});
