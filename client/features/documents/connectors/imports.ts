import type { ConnectorImport } from "../../../../shared/api/connectors.ts";

/**
 * The imports shown, with `fresh` read in, newest first. An import ends once (done or failed) and never runs
 * again, so a "running" answer that arrives after its end (the list read on opening, or a poll that took
 * longer than the next one) is older than what is shown, and is left out.
 */
export function mergeImports(current: ConnectorImport[], fresh: ConnectorImport[]): ConnectorImport[] {
  const byId = new Map(current.map((entry) => [entry.id, entry]));
  for (const entry of fresh) {
    const shown = byId.get(entry.id);
    if (shown && shown.status !== "running" && entry.status === "running") continue;
    byId.set(entry.id, entry);
  }
  return [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}
