import assert from "node:assert/strict";
import { firstBlankMessage, messagesChanged, messagesFull, trimmedMessages } from "./suggested.ts";

Deno.test("trimmedMessages() trims heading and message and drops the editor's keys", () => {
  const rows = [{ key: 3, heading: " Hi ", message: " Say hello \n" }];
  assert.deepEqual(trimmedMessages(rows), [{ heading: "Hi", message: "Say hello" }]);
});

Deno.test("firstBlankMessage() numbers the first message without text from 1", () => {
  assert.equal(firstBlankMessage([{ heading: "a", message: "x" }]), null);
  assert.equal(firstBlankMessage([{ heading: "a", message: "x" }, { heading: "b", message: "" }]), 2);
  assert.equal(firstBlankMessage([{ heading: "", message: "" }, { heading: "b", message: "" }]), 1);
  assert.equal(firstBlankMessage([]), null);
});

Deno.test("messagesChanged() compares the list with the saved one, order included", () => {
  const list = [{ heading: "a", message: "x" }, { heading: "b", message: "y" }];
  assert.equal(messagesChanged(list, JSON.stringify(list)), false);
  assert.equal(messagesChanged([...list].reverse(), JSON.stringify(list)), true);
  assert.equal(messagesChanged([], "[]"), false);
  assert.equal(
    messagesChanged([{ heading: "a", message: "z" }], JSON.stringify([{ heading: "a", message: "x" }])),
    true,
  );
});

Deno.test("messagesFull() stops adding at 20 messages", () => {
  assert.equal(messagesFull(19), false);
  assert.equal(messagesFull(20), true);
  assert.equal(messagesFull(21), true);
});
