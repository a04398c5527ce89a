import { decodeBase64 } from "../../../encoding.ts";

/**
 * A WebAssembly module given as base64 (the scans' *_wasm.ts), compiled on the first call and kept; null where
 * the runtime cannot compile it (no SIMD support), so the caller falls back to its plain scan.
 */
export function wasmModuleOnce(base64: string): () => WebAssembly.Module | null {
  let compiled: WebAssembly.Module | null | undefined;
  return () => {
    if (compiled === undefined) {
      try {
        compiled = new WebAssembly.Module(new Uint8Array(decodeBase64(base64)));
      } catch {
        compiled = null;
      }
    }
    return compiled;
  };
}
