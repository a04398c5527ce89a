import assert from "node:assert/strict";
import { ApiError } from "../../lib/api.ts";
import { codesToSend, recoveryCodesText, serverMessage } from "./recovery.ts";

Deno.test("serverMessage() prefers the answer's message, then its error", () => {
  assert.equal(
    serverMessage(new ApiError("x", 400, { message: "Invalid codes.", error: "e" })),
    "Invalid codes.",
  );
  assert.equal(
    serverMessage(new ApiError("x", 400, { message: "", error: "Expired token." })),
    "Expired token.",
  );
  assert.equal(
    serverMessage(new ApiError("x", 200, { success: false, error: "Too many tries." })),
    "Too many tries.",
  );
});

Deno.test("serverMessage() gives the network failure's text, and null when the server said nothing", () => {
  const offline = new ApiError("Cannot reach the server. Check your connection and try again.", 0, null);
  assert.equal(serverMessage(offline), offline.message);
  assert.equal(serverMessage(new ApiError("The server answered 500", 500, null)), null);
  assert.equal(serverMessage(new ApiError("x", 500, "text body")), null);
  assert.equal(serverMessage(new ApiError("x", 400, { message: 3 })), null);
  assert.equal(serverMessage(new Error("plain")), null);
});

Deno.test("codesToSend() trims the codes and leaves the empty ones out", () => {
  assert.deepEqual(codesToSend([" abc ", "", "  ", "def"]), ["abc", "def"]);
  assert.deepEqual(codesToSend(["", ""]), []);
});

Deno.test("recoveryCodesText() puts one code a line, ending with a newline", () => {
  assert.equal(recoveryCodesText(["a1", "b2", "c3"]), "a1\nb2\nc3\n");
});
