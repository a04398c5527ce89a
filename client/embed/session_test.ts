import assert from "node:assert/strict";
import { openKey, sessionId, sessionKey } from "./session.ts";

const EMBED = "6f1c2c1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f";

function memory(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  } as unknown as Storage & { data: Map<string, string> };
}

Deno.test("session: one UUID per embed, kept in storage and reused", () => {
  const storage = memory();
  const first = sessionId(storage, EMBED);
  assert.match(first, /^[0-9a-f-]{36}$/);
  assert.equal(storage.data.get(sessionKey(EMBED)), first);
  assert.equal(sessionId(storage, EMBED), first, "the same visitor keeps the session");
  const other = sessionId(storage, "00000000-0000-4000-8000-000000000000");
  assert.notEqual(other, first, "each embed has its own");
  assert.notEqual(sessionKey(EMBED), openKey(EMBED));
});

Deno.test("session: a stored value that is not a UUID is replaced; refused storage gives a page-long session", () => {
  const storage = memory();
  storage.data.set(sessionKey(EMBED), "<script>");
  const made = sessionId(storage, EMBED);
  assert.match(made, /^[0-9a-f-]{36}$/);
  assert.equal(storage.data.get(sessionKey(EMBED)), made);
  const refusing = {
    getItem() {
      throw new DOMException("denied", "SecurityError");
    },
    setItem() {
      throw new DOMException("full", "QuotaExceededError");
    },
  };
  assert.match(sessionId(refusing, EMBED), /^[0-9a-f-]{36}$/);
  assert.match(sessionId(null, EMBED), /^[0-9a-f-]{36}$/);
});
