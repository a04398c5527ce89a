/** How much of an earlier prompt the history shows before "Show all". */
export const CLIP_CHARS = 200;
export const CLIP_LINES = 3;

/**
 * The start of a prompt for the history list: at most `CLIP_LINES` lines and `CLIP_CHARS` characters, then
 * "…" (on a line of its own after whole lines) when something was left out. `clipped` says whether it was.
 */
export function clipPrompt(prompt: string): { text: string; clipped: boolean } {
  const lines = prompt.split("\n");
  const head = lines.slice(0, CLIP_LINES).join("\n");
  if (head.length > CLIP_CHARS) return { text: `${head.slice(0, CLIP_CHARS).trimEnd()}…`, clipped: true };
  if (head.length === prompt.length) return { text: prompt, clipped: false };
  return { text: `${head.trimEnd()}\n…`, clipped: true };
}
