/**
 * The cosine range of each test question with the chunk it counts on finding (server/testing/lexical_pairs.ts),
 * over the upload times the chunk's header can hold: every second of three days, every date of the years at
 * the four lowest and highest of those seconds, and 20,000 sampled times (sweepRange). lexical_margins_test.ts
 * runs a coarser search of the same pairs; this one is for a pair's full figures.
 *
 * Run: `deno run -A scripts/lexical_margins.ts [--step=1] [--from=2026] [--to=2030] [query filter]`.
 */
import { parseArgs } from "node:util";
import { marginOf, MIN_MARGIN, sweepRange } from "../server/testing/lexical_margins.ts";
import { LEXICAL_PAIRS } from "../server/testing/lexical_pairs.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { step: { type: "string" }, from: { type: "string" }, to: { type: "string" } },
  allowPositionals: true,
});
const options = {
  from: Number(values.from ?? 2026),
  to: Number(values.to ?? 2030),
  step: Number(values.step ?? 1),
  samples: 20_000,
};
const filter = positionals[0] ?? "";
const done = new Map<string, string>();
for (const pair of LEXICAL_PAIRS) {
  if (!pair.query.includes(filter)) continue;
  const key = JSON.stringify([pair.query, pair.chunk, pair.threshold, pair.expect]);
  if (!done.has(key)) {
    const range = sweepRange(pair.query, pair.chunk, options);
    const margin = marginOf(range, pair.threshold, pair.expect);
    done.set(
      key,
      `${margin < MIN_MARGIN ? "FRAGILE" : "ok"} margin ${margin.toFixed(3)}: ${
        JSON.stringify(pair.query)
      } ` +
        `vs ${pair.chunk.title} (${pair.chunk.text.length} chars) ${pair.expect} over ${pair.threshold}: ` +
        `min ${range.min.toFixed(3)} at ${range.minAt}, max ${range.max.toFixed(3)} at ${range.maxAt} ` +
        `(${range.count} times)`,
    );
  }
  console.log(`${pair.test}: ${done.get(key)}`);
}
