import assert from "node:assert/strict";
import { parsePairs } from "./mcp_form.ts";

Deno.test("environment and header lines become name and value pairs", () => {
  assert.deepEqual(parsePairs("API_KEY=abc=def\n\n  MODE = fast \nbroken\n=nokey", "="), {
    API_KEY: "abc=def",
    MODE: "fast",
  });
  assert.deepEqual(parsePairs("Authorization: Bearer x:y\nX-Team:  blue", ":"), {
    Authorization: "Bearer x:y",
    "X-Team": "blue",
  });
});
