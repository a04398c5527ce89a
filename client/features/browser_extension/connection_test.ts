import assert from "node:assert/strict";
import { apiBaseOf, connectionFor, connectionMessage, isConnectionEvent } from "./connection.ts";

Deno.test("the connection string is the instance's API base and the key, as the reference's extension parses it", () => {
  assert.equal(apiBaseOf("https://docs.example.org"), "https://docs.example.org/api");
  const connection = connectionFor("http://127.0.0.1:3001", "brx-AAAAAAA-BBBBBBB-CCCCCCC-DDDDDDD");
  assert.equal(connection, "http://127.0.0.1:3001/api|brx-AAAAAAA-BBBBBBB-CCCCCCC-DDDDDDD");
  const [base, key] = connection.split("|");
  assert.equal(new URL(base).protocol, "http:");
  assert.ok(key.startsWith("brx-"));
  assert.deepEqual(connectionMessage(connection), {
    type: "NEW_BROWSER_EXTENSION_CONNECTION",
    apiKey: connection,
  });
});

Deno.test("only NEW_BROWSER_EXTENSION_CONNECTION messages count as connection events", () => {
  assert.equal(isConnectionEvent({ type: "NEW_BROWSER_EXTENSION_CONNECTION" }), true);
  assert.equal(isConnectionEvent({ type: "something else" }), false);
  assert.equal(isConnectionEvent("NEW_BROWSER_EXTENSION_CONNECTION"), false);
  assert.equal(isConnectionEvent(null), false);
});
