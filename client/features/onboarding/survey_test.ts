import assert from "node:assert/strict";
import { MemoryStorage, stubGlobal, stubStorage } from "../../testing/stubs.ts";
import { readCompleted, SURVEY_KEYS, surveyBody, surveyUsed } from "./survey.ts";

const EMPTY = { email: "", useCase: "" as const, comment: "" };

Deno.test("readCompleted() reads the browser's survey flag; blocked storage reads as not sent", () => {
  const store = new MemoryStorage();
  assert.equal(readCompleted(store), false);
  store.setItem(SURVEY_KEYS.completed, "true");
  assert.equal(readCompleted(store), true);
  store.setItem(SURVEY_KEYS.completed, "yes");
  assert.equal(readCompleted(store), false);
  assert.equal(readCompleted(null), false);
  {
    using storage = stubStorage();
    storage.store.setItem("lectern_questionnaire_completed", "true");
    assert.equal(readCompleted(), true, "the browser's storage by default");
  }
  using _blocked = stubGlobal("localStorage", null, { throws: new DOMException("denied", "SecurityError") });
  assert.equal(readCompleted(), false);
});

Deno.test("surveyUsed() is true once any field holds more than spaces", () => {
  assert.equal(surveyUsed(EMPTY), false);
  assert.equal(surveyUsed({ ...EMPTY, email: "  ", comment: " \n" }), false);
  assert.equal(surveyUsed({ ...EMPTY, email: "a@b.c" }), true);
  assert.equal(surveyUsed({ ...EMPTY, useCase: "job" }), true);
  assert.equal(surveyUsed({ ...EMPTY, comment: "hi" }), true);
});

Deno.test("surveyBody() sends the trimmed email, and the use case and comment only when given", () => {
  assert.deepEqual(surveyBody({ email: " a@b.c ", useCase: "", comment: "  " }), { email: "a@b.c" });
  assert.deepEqual(surveyBody({ email: "", useCase: "personal", comment: " nice " }), {
    email: "",
    useCase: "personal",
    comment: "nice",
  });
});
