// Vector records for the LanceDB store's tests: seeded, so a failing test can be repeated.
import type { VectorRecord } from "../types.ts";
import { seededRandom as random } from "../../../testing/random.ts";

/** `count` records of `dimensions` random components, ids `${prefix}-${index}`, one document per prefix. */
export function randomRecords(
  count: number,
  prefix: string,
  seed: number,
  dimensions: number,
): VectorRecord[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    docId: `${prefix}-doc`,
    vector: Array.from({ length: dimensions }, () => next() - 0.5),
    text: `chunk ${prefix} ${index}`,
    metadata: { title: `${prefix}.txt`, index },
  }));
}
