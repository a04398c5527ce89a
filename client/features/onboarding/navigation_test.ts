import assert from "node:assert/strict";
import { stubLocation } from "../../testing/stubs.ts";
import { goToStep, STEP_FORM_ID } from "./navigation.ts";

Deno.test("goToStep() opens the step's own page", () => {
  using location = stubLocation("http://127.0.0.1:3001/onboarding/user-setup");
  goToStep("data-handling");
  goToStep("create-workspace");
  assert.deepEqual(location.visits, [
    { how: "assign", to: "/onboarding/data-handling" },
    { how: "assign", to: "/onboarding/create-workspace" },
  ]);
});

Deno.test("STEP_FORM_ID names the form the forward arrow submits", () => {
  assert.equal(STEP_FORM_ID, "onboarding-step");
});
