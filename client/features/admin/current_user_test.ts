import assert from "node:assert/strict";
import type { User } from "../../../shared/api/auth.ts";
import { currentUserResult } from "./current_user.ts";

const USER: User = {
  id: 1,
  username: "admin",
  pfpFilename: null,
  role: "admin",
  suspended: 0,
  seen_recovery_codes: true,
  createdAt: "2026-01-01T00:00:00.000Z",
  lastUpdatedAt: "2026-01-01T00:00:00.000Z",
  dailyMessageLimit: null,
  bio: "",
  preferredLanguage: "en",
};

Deno.test("currentUserResult() takes the user of a successful answer", () => {
  assert.deepEqual(currentUserResult({ success: true, user: USER, message: null }), {
    user: USER,
    error: null,
  });
});

Deno.test("currentUserResult() gives the server's message when there is no user", () => {
  assert.deepEqual(currentUserResult({ success: false, user: null, message: "Account suspended." }), {
    user: null,
    error: "Account suspended.",
  });
  assert.deepEqual(currentUserResult({ success: true, user: null, message: null }), {
    user: null,
    error: null,
  });
  assert.deepEqual(currentUserResult({ success: false, user: USER, message: "No." }), {
    user: null,
    error: "No.",
  });
});
