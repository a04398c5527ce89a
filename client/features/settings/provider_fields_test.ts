import assert from "node:assert/strict";
import type { SettingField } from "../../../shared/providers/llm_catalog.ts";
import { describedByOf, fieldId, inputAttributes, isUnlisted } from "./provider_fields.ts";

const field = (type: SettingField["type"], required = true): SettingField => ({ key: "K", type, required });

Deno.test("describedByOf() names the hint and the problem a control has, and nothing without them", () => {
  const id = fieldId("OpenAiKey");
  assert.equal(id, "setting-OpenAiKey");
  assert.equal(describedByOf(id, true, null), "setting-OpenAiKey-hint");
  assert.equal(describedByOf(id, false, "No models."), "setting-OpenAiKey-problem");
  assert.equal(describedByOf(id, true, "No models."), "setting-OpenAiKey-hint setting-OpenAiKey-problem");
  assert.equal(describedByOf(id, false, null), undefined);
});

Deno.test("inputAttributes(): numbers are whole and at least 1, secrets stay out of the password manager", () => {
  assert.deepEqual(inputAttributes(field("number"), false), {
    type: "number",
    required: true,
    min: 1,
    step: 1,
    inputMode: "numeric",
    autoComplete: "off",
  });
  const password = inputAttributes(field("password"), false);
  assert.equal(password.type, "password");
  assert.equal(password.autoComplete, "new-password");
  assert.equal(password.min, undefined);
  assert.equal(inputAttributes(field("url"), false).type, "url");
});

Deno.test("inputAttributes(): a field fixed by the environment or optional is not required", () => {
  assert.equal(inputAttributes(field("text"), true).required, false);
  assert.equal(inputAttributes(field("text", false), false).required, false);
  assert.equal(inputAttributes(field("text"), false).required, true);
});

Deno.test("isUnlisted() is true for a saved value missing from the options, never for an empty one", () => {
  const options = [{ value: "a" }, { value: "b" }];
  assert.equal(isUnlisted("c", options), true);
  assert.equal(isUnlisted("a", options), false);
  assert.equal(isUnlisted("", options), false);
});
