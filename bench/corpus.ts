// The shared corpus (../shared/corpus, beside the project) as the ingest and parse benchmarks read it: every
// file but the licences and the corpus's own listings, in name order; BENCH_STRIDE=n takes every n-th (a sample of
// every kind, for a loaded machine).
import { fileURLToPath } from "node:url";

export const CORPUS = fileURLToPath(new URL("../../shared/corpus/", import.meta.url));
export const STRIDE = Math.max(1, Number(Deno.env.get("BENCH_STRIDE") ?? 1));

/** Ends the benchmark with a line saying why when the corpus is not beside the project. */
export function corpusOrSkip(benchmark: string): void {
  try {
    Deno.statSync(CORPUS);
  } catch {
    console.log(`${benchmark} skipped: ${CORPUS} is not here (it lives beside the project in ../shared).`);
    Deno.exit(0);
  }
}

function* walk(directory: string): Generator<string> {
  for (const entry of [...Deno.readDirSync(directory)].sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory && entry.name !== "LICENSES") yield* walk(path);
    else if (entry.isFile && !["SOURCE.md", "MANIFEST.tsv"].includes(entry.name)) yield path;
  }
}

/** The corpus's files (every STRIDE-th), as paths. */
export function corpusFiles(): string[] {
  return [...walk(CORPUS.replace(/\/$/, ""))].filter((_, index) => index % STRIDE === 0);
}
