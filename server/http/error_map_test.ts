import assert from "node:assert/strict";
import { HTTPException } from "hono/http-exception";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { createLogger, type Logger } from "../log.ts";
import { AppError, ProviderError, STORAGE_FULL_MESSAGE } from "../errors.ts";
import { answerError, UNEXPECTED_ERROR_MESSAGE } from "./error_map.ts";

/** A logger that keeps its lines, to check what the server wrote down. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger("debug", (line) => lines.push(line)), { lines });
}

/** Makes the vector store's count throw `error`, then asks for the count of every workspace. */
async function failingVectorCount(app: TestApp, error: Error) {
  const created = await app.json("/api/workspace/new", { json: { name: "Rivers" } });
  assert.equal(created.status, 200);
  app.deps.vectors.count = () => Promise.reject(error);
  const response = await app.request("/api/system/system-vectors");
  return { status: response.status, text: await response.text() };
}

Deno.test("a ProviderError thrown in a handler answers 502 with the provider's own message", async () => {
  const log = recordingLogger();
  await using app = await createTestApp({ log });
  const message = "Cannot reach the vector database at http://127.0.0.1:9/: connection refused.";
  const answer = await failingVectorCount(app, new ProviderError(message));
  assert.equal(answer.status, 502);
  assert.deepEqual(JSON.parse(answer.text), { success: false, error: message });
  assert.ok(
    log.lines.some((line) => line.includes("A provider failed") && line.includes("connection refused")),
  );
});

Deno.test("an unknown error answers 500 with a generic message; its text and stack only reach the log", async () => {
  const log = recordingLogger();
  await using app = await createTestApp({ log });
  const error = new TypeError("Cannot read properties of undefined (reading 'secretColumn')");
  const answer = await failingVectorCount(app, error);
  assert.equal(answer.status, 500);
  assert.deepEqual(JSON.parse(answer.text), { success: false, error: UNEXPECTED_ERROR_MESSAGE });
  assert.doesNotMatch(answer.text, /secretColumn|TypeError|error_map_test|\bat /);
  const logged = log.lines.find((line) => line.includes("Unhandled error"));
  assert.ok(logged?.includes("secretColumn"), "the error's message is logged");
  assert.ok(logged?.includes("error_map_test.ts"), "the stack is logged");
});

Deno.test("the error map answers each error class with its status and body", async () => {
  const log = recordingLogger();
  const where = { method: "POST", path: "/api/somewhere" };
  assert.deepEqual(
    answerError(
      new AppError("not_found", "Chat not found.", { body: { chat: null, message: "x" } }),
      log,
      where,
    ),
    { status: 404, body: { chat: null, message: "x" } },
  );
  assert.deepEqual(answerError(new AppError("conflict", "Taken."), log, where), {
    status: 409,
    body: { success: false, error: "Taken." },
  });
  assert.deepEqual(answerError(new ProviderError("The model is overloaded.", 529), log, where), {
    status: 502,
    body: { success: false, error: "The model is overloaded." },
  });
  const full = Object.assign(new Error("write failed"), { cause: { code: "ENOSPC" } });
  assert.deepEqual(answerError(full, log, where), {
    status: 507,
    body: { success: false, error: STORAGE_FULL_MESSAGE },
  });
  const exception = answerError(new HTTPException(418, { message: "teapot" }), log, where);
  assert.ok(exception instanceof Response);
  assert.equal(exception.status, 418);
  assert.equal(await exception.text(), "teapot");
  assert.deepEqual(answerError("a thrown string", log, where), {
    status: 500,
    body: { success: false, error: UNEXPECTED_ERROR_MESSAGE },
  });
});

Deno.test("a malformed JSON body and a body over its limit answer 400 and 413 in the route's shape", async () => {
  await using app = await createTestApp();
  const malformed = await app.json("/api/workspace/new", { json: "{not json" });
  assert.equal(malformed.status, 400);
  assert.match(
    String((malformed.body as { message: string }).message),
    /^The request body is not valid JSON: /,
  );
  assert.equal((malformed.body as { workspace: unknown }).workspace, null);
  const large = await app.json("/api/request-token", {
    json: JSON.stringify({ password: "x".repeat(70_000) }),
  });
  assert.equal(large.status, 413);
  assert.deepEqual(large.body, {
    success: false,
    error: "The request body is too large: the limit is 64 KB.",
  });
});
