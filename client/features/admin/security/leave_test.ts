import assert from "node:assert/strict";
import { STORAGE_KEYS } from "../../../lib/storage.ts";
import { MemoryStorage, stubLocation, stubStorage } from "../../../testing/stubs.ts";
import { signInAgain } from "./leave.ts";

Deno.test("signInAgain() forgets the session and opens the login screen with the reason", () => {
  const store = new MemoryStorage();
  store.setItem(STORAGE_KEYS.token, "t");
  store.setItem(STORAGE_KEYS.user, "{}");
  store.setItem(STORAGE_KEYS.authTimestamp, "1");
  using _storage = stubStorage(store);
  using location = stubLocation();
  signInAgain("password-set");
  assert.equal(store.length, 0);
  assert.deepEqual(location.visits, [{ how: "assign", to: "/login?reason=password-set" }]);
});
