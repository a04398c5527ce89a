import assert from "node:assert/strict";
import {
  failureOf,
  forwardEnabled,
  submitAction,
  TEAM_USERNAME_MIN,
  type UserSetupValues,
  validTeam,
} from "./user_setup.ts";

const NONE: UserSetupValues = {
  mode: null,
  usePassword: null,
  password: "",
  username: "",
  adminPassword: "",
};

Deno.test("validTeam() needs a 6-character username of allowed characters and an 8-character password", () => {
  assert.equal(TEAM_USERNAME_MIN, 6);
  assert.equal(validTeam("admin1", "12345678"), true);
  assert.equal(validTeam("admin", "12345678"), false, "username too short");
  assert.equal(validTeam("Admin1", "12345678"), false, "capital letter");
  assert.equal(validTeam("admin 1", "12345678"), false, "space");
  assert.equal(validTeam("admin1", "1234567"), false, "password too short");
});

Deno.test("forwardEnabled() waits for a choice, then for that choice's fields", () => {
  assert.equal(forwardEnabled(NONE), false);
  assert.equal(forwardEnabled({ ...NONE, mode: "justMe" }), false, "password question unanswered");
  assert.equal(forwardEnabled({ ...NONE, mode: "justMe", usePassword: "no" }), true);
  assert.equal(forwardEnabled({ ...NONE, mode: "justMe", usePassword: "yes", password: "1234567" }), false);
  assert.equal(forwardEnabled({ ...NONE, mode: "justMe", usePassword: "yes", password: "12345678" }), true);
  assert.equal(
    forwardEnabled({ ...NONE, mode: "team", username: "admin1", adminPassword: "1234567" }),
    false,
  );
  assert.equal(
    forwardEnabled({ ...NONE, mode: "team", username: "admin1", adminPassword: "12345678" }),
    true,
  );
  assert.equal(
    forwardEnabled({ ...NONE, mode: "team", usePassword: "no", password: "12345678" }),
    false,
    "the other mode's fields do not count",
  );
});

Deno.test("submitAction() moves on, sets the instance password or creates the first admin", () => {
  assert.equal(submitAction({ ...NONE, mode: "justMe", usePassword: "no", password: "12345678" }), "next");
  assert.equal(
    submitAction({ ...NONE, mode: "justMe", usePassword: "yes", password: "12345678" }),
    "instancePassword",
  );
  assert.equal(submitAction({ ...NONE, mode: "justMe", usePassword: "yes", password: "short" }), null);
  assert.equal(
    submitAction({ ...NONE, mode: "team", username: "admin1", adminPassword: "12345678" }),
    "team",
  );
  assert.equal(submitAction({ ...NONE, mode: "team", username: "adm", adminPassword: "12345678" }), null);
  assert.equal(submitAction(NONE), null);
});

Deno.test("failureOf() reads a failure from the body: its error, an empty text without one, else null", () => {
  assert.equal(failureOf({ success: false, error: "Username taken." }), "Username taken.");
  assert.equal(failureOf({ error: "Refused." }), "Refused.");
  assert.equal(failureOf({ success: false }), "");
  assert.equal(failureOf({ success: false, error: "" }), "");
  assert.equal(failureOf({ success: true, error: null }), null);
  assert.equal(failureOf({}), null);
  assert.equal(failureOf(null), null);
});
