import assert from "node:assert/strict";
import { formatDate } from "./dates.ts";

Deno.test("formatDate() shows a timestamp as a medium date and a short time", () => {
  const value = "2026-01-05T15:04:00";
  const expected = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(value),
  );
  assert.equal(formatDate(value), expected);
  assert.match(formatDate(value), /^Jan 5, 2026, 3:04\sPM$/);
});

Deno.test("formatDate() shows a value that is not a date as it is", () => {
  assert.equal(formatDate("not a date"), "not a date");
  assert.equal(formatDate(""), "");
});
