import type { Deps } from "../deps.ts";
import { workspaceDocuments } from "../../db/schema.ts";
import { VectorCache } from "../documents/vector_cache.ts";
import { LECTERN_VERSION } from "../../shared/version.ts";

/** Whole gigabytes (10^9 bytes), as the reference reports them. */
const gigabytes = (bytes: number) => Math.floor(bytes / 1e9);

/** The disk that holds the storage folder: free and total space; zeros when the system cannot say. */
async function storageSpace(root: string): Promise<{ current: number; capacity: number }> {
  try {
    // Loaded on the first call: node:fs/promises costs a start about 0.8 MiB (issue 21).
    const { statfs } = await import("node:fs/promises");
    const stats = await statfs(root);
    return {
      current: gigabytes(stats.bavail * stats.bsize),
      capacity: gigabytes(stats.blocks * stats.bsize),
    };
  } catch {
    return { current: 0, capacity: 0 };
  }
}

/**
 * `GET /api/utils/metrics` (no login): whether the server is up, its version and mode, and
 * the space left for storage. No secret and no path.
 */
export async function metrics(deps: Deps) {
  return {
    online: true,
    version: LECTERN_VERSION,
    mode: deps.settings.multiUserMode ? "multi-user" : "single-user",
    vectorDB: deps.settings.value("VectorDB") ?? "lancedb",
    storage: await storageSpace(deps.paths.root),
    appVersion: LECTERN_VERSION,
  };
}

/**
 * The `setup-complete` keys that are facts about the instance rather than settings
 * (docs/api-compat.md#setup-complete), for the callers who get every key. Chat history stays viewable (no
 * switch yet), there is no telemetry to turn off, and single sign-on has no redirect for people without a
 * login link.
 */
export async function setupFacts(deps: Deps) {
  return {
    DisableViewChatHistory: false,
    DisableTelemetry: "true",
    HasExistingEmbeddings: await deps.db.$count(workspaceDocuments) > 0,
    HasCachedEmbeddings: await new VectorCache(deps.paths.vectorCache).hasEntries(),
    SimpleSSONoLoginRedirect: null,
  };
}
