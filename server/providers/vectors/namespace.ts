import { createHash } from "../../hash.ts";
import type { Embedder } from "../embedders/types.ts";

/** Every namespace of one workspace starts with this. */
export function workspaceNamespacePrefix(workspaceId: number): string {
  return `ws${workspaceId}_`;
}

/**
 * A workspace's vectors made by one embedder. Vectors of different models never share a table, so changing
 * the embedder cannot mix dimensions or meanings; the old table stays until it is replaced.
 */
export function workspaceNamespace(workspaceId: number, embedder: Embedder): string {
  const tag = createHash("sha256").update(embedder.fingerprint).digest("hex").slice(0, 12);
  return `${workspaceNamespacePrefix(workspaceId)}${tag}`;
}
