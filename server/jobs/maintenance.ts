import type { Database } from "../../db/client.ts";
import { pruneRateLimitHits } from "../auth/rate_limit.ts";
import { sweepPendingVectors } from "../documents/pending_vectors.ts";
import type { Logger } from "../log.ts";
import type { VectorStore } from "../providers/vectors/types.ts";
import type { Job } from "./runner.ts";

/** A write this old (its pending-vectors row) belongs to a process that died: another replica's is younger. */
export const ABANDONED_WRITE_MS = 60 * 60_000;

/**
 * The database-wide maintenance, run by the elected replica only: login attempts too old to count are pruned,
 * and the vectors of writes a dead replica left half done are deleted.
 */
export function maintenanceJob(
  deps: { db: Database; vectors: VectorStore; log: Logger },
  intervalMs: number,
): Job {
  return {
    name: "maintenance",
    scope: "leader",
    intervalMs,
    async run() {
      const attempts = await pruneRateLimitHits(deps.db);
      const documents = await sweepPendingVectors(deps, {
        olderThan: new Date(Date.now() - ABANDONED_WRITE_MS),
      });
      const fields = { prunedAttempts: attempts, sweptDocuments: documents };
      if (attempts + documents > 0) deps.log.info("Maintenance done", fields);
      else deps.log.debug("Maintenance done", fields);
    },
  };
}
