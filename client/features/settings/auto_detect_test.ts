import assert from "node:assert/strict";
import {
  autoDetectAvailable,
  autoDetectCandidates,
  detectEndpoint,
  type EndpointLookup,
} from "./auto_detect.ts";

/** Waits for `ms`, or rejects like fetch does when the signal aborts first. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("aborted", "AbortError"));
    });
  });
}

Deno.test("auto-detect candidates: the four hosts with the suffix, without duplicates", () => {
  assert.deepEqual(autoDetectCandidates(":1234/v1", "lectern.example"), [
    "http://localhost:1234/v1",
    "http://127.0.0.1:1234/v1",
    "http://host.docker.internal:1234/v1",
    "http://lectern.example:1234/v1",
  ]);
  assert.deepEqual(autoDetectCandidates(":11434", "127.0.0.1"), [
    "http://localhost:11434",
    "http://127.0.0.1:11434",
    "http://host.docker.internal:11434",
  ]);
  assert.deepEqual(autoDetectCandidates(":8080/v1"), [
    "http://localhost:8080/v1",
    "http://127.0.0.1:8080/v1",
    "http://host.docker.internal:8080/v1",
  ]);
});

Deno.test("auto-detect: the candidate with models wins among failing, empty and timed-out ones", async () => {
  const aborted: string[] = [];
  const asked: string[] = [];
  const waited: string[] = [];
  const lookup: EndpointLookup<{ id: string }> = async (endpoint, signal) => {
    asked.push(endpoint);
    signal.addEventListener("abort", () => aborted.push(endpoint));
    switch (endpoint) {
      case "http://refused":
        throw new Error("connection refused");
      case "http://empty":
        return [];
      case "http://timed-out":
        await wait(20, signal);
        throw new Error("Request timed out.");
      case "http://winner":
        await wait(80, signal);
        return [{ id: "fake-model" }];
      default:
        // Never answers: aborted once the winner is known.
        await wait(10_000, signal);
        waited.push(endpoint);
        return [{ id: "too-late" }];
    }
  };
  const result = await detectEndpoint(
    ["http://refused", "http://timed-out", "http://hangs", "http://empty", "http://winner"],
    lookup,
    // Longer than the slowest lookup's wait: only the winner's answer can cut that wait short.
    { timeoutMs: 60_000 },
  );
  assert.equal(result.endpoint, "http://winner");
  assert.deepEqual(result.models, [{ id: "fake-model" }]);
  assert.deepEqual(
    result.failed.toSorted(),
    ["http://empty", "http://refused", "http://timed-out"],
    "every candidate that failed before the winner answered is reported",
  );
  assert.equal(asked.length, 5, "all candidates are asked in parallel");
  assert.ok(aborted.includes("http://hangs"), "the unanswered lookup is aborted once a winner is known");
  // Not a duration (the machine's load stretches it): the slowest lookup's wait was cut short, never ran out.
  assert.deepEqual(waited, [], "it does not wait for the slowest candidate");
});

Deno.test("auto-detect: a candidate that does not answer within the time-out is aborted and reported", async () => {
  const aborted: string[] = [];
  const result = await detectEndpoint(["http://silent", "http://late"], async (endpoint, signal) => {
    signal.addEventListener("abort", () => aborted.push(endpoint));
    await wait(endpoint === "http://silent" ? 10_000 : 20, signal);
    return endpoint === "http://late" ? ["m"] : [];
  }, { timeoutMs: 5 });
  assert.equal(result.endpoint, null);
  assert.deepEqual(result.failed.toSorted(), ["http://late", "http://silent"]);
  assert.deepEqual(aborted.toSorted(), ["http://late", "http://silent"]);
});

Deno.test("auto-detect: with the first good answer the others are aborted and not reported", async () => {
  const aborted: string[] = [];
  const result = await detectEndpoint(["http://a", "http://b"], async (endpoint, signal) => {
    signal.addEventListener("abort", () => aborted.push(endpoint));
    if (endpoint === "http://a") return ["m"];
    await wait(1_000, signal);
    return ["n"];
  });
  assert.equal(result.endpoint, "http://a");
  assert.deepEqual(result.failed, []);
  assert.deepEqual(aborted.toSorted(), ["http://a", "http://b"]);
});

Deno.test("auto-detect: when nothing answers, the result is null and every candidate is reported", async () => {
  const result = await detectEndpoint<string>(
    ["http://x", "http://y", "http://z"],
    async (endpoint, signal) => {
      if (endpoint === "http://x") throw new Error("502");
      if (endpoint === "http://y") return [];
      await wait(10_000, signal);
      return ["late"];
    },
    { timeoutMs: 30 },
  );
  assert.equal(result.endpoint, null);
  assert.deepEqual(result.models, []);
  assert.deepEqual(result.failed.toSorted(), ["http://x", "http://y", "http://z"]);
});

Deno.test("auto-detect: no candidates resolves at once with nothing found", async () => {
  const result = await detectEndpoint([], () => Promise.resolve(["m"]));
  assert.deepEqual(result, { endpoint: null, models: [], failed: [] });
});

Deno.test("autoDetectAvailable() offers auto-detect on an editable page for a provider with it and a base path", () => {
  const provider = { autoDetect: { suffix: ":11434" }, lookup: { basePathField: "OllamaLLMBasePath" } };
  assert.equal(autoDetectAvailable(true, provider), true);
  assert.equal(autoDetectAvailable(false, provider), false, "read-only page");
  assert.equal(autoDetectAvailable(true, { lookup: provider.lookup }), false, "no auto-detect");
  assert.equal(
    autoDetectAvailable(true, { autoDetect: provider.autoDetect, lookup: {} }),
    false,
    "no base path",
  );
  assert.equal(autoDetectAvailable(true, { autoDetect: provider.autoDetect }), false, "no lookup");
});
