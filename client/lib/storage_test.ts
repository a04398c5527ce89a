import assert from "node:assert/strict";
import { MemoryStorage, stubGlobal, stubStorage } from "../testing/stubs.ts";
import { localStore, STORAGE_KEYS, storedToken } from "./storage.ts";

Deno.test("STORAGE_KEYS are the product's prefixed keys", () => {
  assert.deepEqual(STORAGE_KEYS, {
    user: "lectern_user",
    token: "lectern_authToken",
    authTimestamp: "lectern_authTimestamp",
    resetToken: "lectern_resetToken",
  });
});

Deno.test("localStore() is the browser's local storage, else null where there is none or it is blocked", () => {
  {
    using storage = stubStorage();
    assert.equal(localStore(), storage.store);
  }
  {
    using _none = stubGlobal("localStorage", undefined);
    assert.equal(localStore(), null);
  }
  using _blocked = stubGlobal("localStorage", null, { throws: new DOMException("denied", "SecurityError") });
  assert.equal(localStore(), null);
});

Deno.test("storedToken() reads the stored token, and null when there is none or storage fails", () => {
  const store = new MemoryStorage();
  using _storage = stubStorage(store);
  assert.equal(storedToken(), null);
  store.setItem(STORAGE_KEYS.token, "abc");
  assert.equal(storedToken(), "abc");
  store.getItem = () => {
    throw new Error("storage is broken");
  };
  assert.equal(storedToken(), null);
});
