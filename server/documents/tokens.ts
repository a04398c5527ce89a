type CountTokens = (text: string) => number;

let counter: Promise<CountTokens> | null = null;

// A non-space run longer than this is counted in pieces: byte-pair merging grows with the square of a piece's
// length, and one pasted base64 blob or line of "=====" must not stall the server.
const LONG_RUN = 256;
const LONG_RUNS = new RegExp(`\\S{${LONG_RUN + 1},}`, "g");

// The cl100k tables are large; they load on the first count, not at start.
function loadCounter(): Promise<CountTokens> {
  counter ??= import("gpt-tokenizer/encoding/cl100k_base").then(({ countTokens }) => {
    const count = (text: string) => countTokens(text, { allowedSpecial: "all" } as never);
    return (text: string) => {
      if (text.length <= LONG_RUN || !LONG_RUNS.test(text)) return count(text);
      let total = count(text.replace(LONG_RUNS, " "));
      for (const run of text.match(LONG_RUNS) ?? []) {
        for (let start = 0; start < run.length; start += LONG_RUN) {
          total += count(run.slice(start, start + LONG_RUN));
        }
      }
      return total;
    };
  });
  return counter;
}

/** A counter of cl100k tokens (the tokenizer the reference uses for its estimates). */
export function tokenCounter(): Promise<CountTokens> {
  return loadCounter();
}

/**
 * Cuts `text` to at most `maxTokens` tokens by removing its middle (the start and the end usually matter
 * most), marking the cut.
 */
export async function truncateMiddle(text: string, maxTokens: number): Promise<string> {
  const count = await loadCounter();
  const total = count(text);
  if (total <= maxTokens) return text;
  const marker = "\n[…]\n";
  let keep = Math.floor(text.length * (maxTokens / total) * 0.95);
  while (keep > 0) {
    const head = Math.ceil(keep / 2);
    const candidate = `${text.slice(0, head)}${marker}${text.slice(text.length - (keep - head))}`;
    if (count(candidate) <= maxTokens) return candidate;
    keep = Math.floor(keep * 0.85);
  }
  return "";
}

/**
 * The document's `token_count_estimate`: an exact count for short texts, and
 * `ceil(length / 8)` from 5120 characters on, where counting would cost more than it tells.
 */
export async function estimateTokens(text: string): Promise<number> {
  if (text.length >= 5120) return Math.ceil(text.length / 8);
  return (await loadCounter())(text);
}
