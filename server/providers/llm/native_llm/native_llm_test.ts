import { childTestSteps } from "./testing/child_tests.ts";

// The native provider's cases (native_llm_cases.ts) load node-llama-cpp: they run in a child `deno test` process,
// one step here per case, so that a crash while its isolate is torn down ends the child only.
Deno.test("the native provider (llama.cpp), in a child process", async (t) => {
  await childTestSteps(t, new URL("./native_llm_cases.ts", import.meta.url));
});
