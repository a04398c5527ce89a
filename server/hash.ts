// node:crypto's hashes, with node:crypto loaded on the first hash rather than when a module imports it: a start
// that hashes nothing spares its load (issue 21: about 1.1 MiB of resident memory and 10-15 ms of CPU on a
// 2-core machine; the modules that hash are evaluated at every start).
import process from "node:process";
import type { Hash } from "node:crypto";

let nodeCrypto: typeof import("node:crypto") | undefined;

/** node:crypto's `createHash`, loaded on its first call. */
export function createHash(algorithm: string): Hash {
  nodeCrypto ??= process.getBuiltinModule("node:crypto") as typeof import("node:crypto");
  return nodeCrypto.createHash(algorithm);
}
