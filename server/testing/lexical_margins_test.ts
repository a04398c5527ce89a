import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { chunkHeader } from "../documents/chunker.ts";
import {
  chunkTextAt,
  type CosineRange,
  type LexicalPair,
  marginOf,
  MIN_MARGIN,
  publishedAt,
  sampleOfYears,
  sweepRange,
} from "./lexical_margins.ts";
import { LEXICAL_PAIRS } from "./lexical_pairs.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FREEDONIA = "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.";

/**
 * The guard's search (scripts/lexical_margins.ts runs the fine one, every second): every 61st second of three
 * days (61, so that the seconds vary too), every date of five years at four times of day, and 2,000 sampled times.
 */
const rangeOf = (pair: Pick<LexicalPair, "query" | "chunk">): CosineRange =>
  sweepRange(pair.query, pair.chunk, { from: 2026, to: 2030, step: 61, times: 2, samples: 2000 });

/**
 * The margin the guard asks of its coarse search: MIN_MARGIN, and 0.04 for the times it skips. On the 21 pairs of
 * lexical_pairs.ts its lowest cosine ran up to 0.042 above the fine search's; at 0.09 it catches each pair that
 * CI could fail on or that came within 0.05 ("What does Freedonia export?": 0.063 here, 0.0497 in the fine one).
 */
const GUARD_MARGIN = MIN_MARGIN + 0.04;

Deno.test("publishedAt() writes an upload time as the server's chunk header does", () => {
  const instant = Date.UTC(2026, 10, 26, 17, 45, 33);
  // The server writes its own time zone's time; read in UTC, the same instant gives the UTC time.
  assert.equal(publishedAt(instant).replace(/\s/g, " "), "11/26/2026, 5:45:33 PM");
  const local = new Date(2026, 10, 26, 17, 45, 33);
  assert.equal(
    publishedAt(local.getTime() - local.getTimezoneOffset() * 60_000),
    local.toLocaleString("en-US"),
  );
  const chunk = { title: "freedonia.txt", text: FREEDONIA };
  assert.equal(
    chunkTextAt(chunk, "1/2/2027, 3:04:05 AM"),
    chunkHeader({ title: "freedonia.txt", published: "1/2/2027, 3:04:05 AM" }) + FREEDONIA,
  );
});

Deno.test("sampleOfYears() spreads its times over the years and repeats numbers of the date in the time", () => {
  const instants = [...sampleOfYears(2026, 2030, 2000)];
  assert.equal(instants.length, 2000);
  assert.ok(instants.every((instant) => instant >= Date.UTC(2026, 0, 1) && instant < Date.UTC(2031, 0, 1)));
  assert.equal(new Set(instants.map((instant) => new Date(instant).getUTCFullYear())).size, 5);
  assert.equal(new Set(instants.map((instant) => new Date(instant).getUTCMonth())).size, 12);
  assert.equal(new Set(instants.map((instant) => new Date(instant).getUTCDate())).size, 31);
  assert.equal(new Set(instants.map((instant) => new Date(instant).getUTCHours())).size, 24);
  assert.equal(new Set(instants.map((instant) => new Date(instant).getUTCSeconds())).size, 60);
  const repeated = instants.filter((instant) => {
    const date = new Date(instant);
    return date.getUTCSeconds() === date.getUTCMinutes();
  });
  assert.ok(repeated.length >= 1500, `${repeated.length} times repeat their minute as the second`);
});

Deno.test('the margin check catches the pair that failed CI: "Capital?" against FREEDONIA under 0.25', () => {
  const range = rangeOf({ query: "Capital?", chunk: { title: "freedonia.txt", text: FREEDONIA } });
  assert.ok(range.min < 0.25, `the search finds an upload time it falls under the threshold: ${range.min}`);
  assert.ok(marginOf(range, 0.25, "found") < GUARD_MARGIN);
  // The whole question main asks instead stays far above it.
  const whole = rangeOf({
    query: "What is the capital of Freedonia?",
    chunk: { title: "freedonia.txt", text: FREEDONIA },
  });
  assert.ok(marginOf(whole, 0.25, "found") >= GUARD_MARGIN, JSON.stringify(whole));
  // A pair expected to be left out is judged by its highest cosine.
  assert.equal(marginOf({ min: 0.1, max: 0.22 }, 0.25, "missed").toFixed(2), "0.03");
});

Deno.test("every test that counts on the built-in embedder finding an uploaded chunk keeps its margin at every upload time", () => {
  const sources = new Map<string, string>();
  const source = (path: string) => {
    if (!sources.has(path)) sources.set(path, Deno.readTextFileSync(`${ROOT}${path}`));
    return sources.get(path)!;
  };
  const ranges = new Map<string, CosineRange>();
  const fragile: string[] = [];
  for (const pair of LEXICAL_PAIRS) {
    // The pair still is the test's: its question and its chunk's text are in its source.
    assert.ok(
      source(pair.test).includes(pair.query),
      `${pair.test} no longer asks ${JSON.stringify(pair.query)}`,
    );
    for (const line of pair.quoted ?? pair.chunk.text.split("\n").filter((line) => line.trim())) {
      assert.ok(source(pair.from ?? pair.test).includes(line), `${pair.from ?? pair.test} has no ${line}`);
    }
    const key = JSON.stringify([pair.query, pair.chunk]);
    if (!ranges.has(key)) ranges.set(key, rangeOf(pair));
    const range = ranges.get(key)!;
    const margin = marginOf(range, pair.threshold, pair.expect);
    if (margin < GUARD_MARGIN) {
      fragile.push(
        `${pair.test}: ${JSON.stringify(pair.query)} against ${pair.chunk.title} ranges ` +
          `${range.min.toFixed(3)} (${range.minAt}) to ${range.max.toFixed(3)} (${range.maxAt}), threshold ` +
          `${pair.threshold} (the guard asks ${
            GUARD_MARGIN.toFixed(2)
          }): ask a fuller question, or set the ` +
          "threshold to 0 where it is not the point",
      );
    }
  }
  assert.deepEqual(fragile, []);
});
