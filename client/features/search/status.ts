import type { SearchAnswer } from "../../../shared/api/search.ts";
import { MIN_SEARCH_CHARS } from "../../../shared/limits.ts";

/** The last answer of the search, for the term it was asked for. */
export type Found = { term: string; answer: SearchAnswer } | { term: string; error: string };

/** What the status line says. */
export type SearchStatus =
  | { kind: "tooShort" }
  | { kind: "failed"; error: string }
  | { kind: "searching" }
  | { kind: "noResults" }
  | { kind: "found"; count: number };

/**
 * The search's state for the term as typed: whether it is long enough to search, the answer that belongs to
 * it (`current`), the results shown (the last answer stays while the next is on its way, so the list does not
 * blink at each key), and the status line.
 */
export function searchView(typed: string, found: Found | null) {
  const active = typed.length >= MIN_SEARCH_CHARS;
  const current = found?.term === typed ? found : null;
  const shown = found && "answer" in found ? found.answer : null;
  const count = shown ? shown.workspaces.length + shown.threads.length : 0;
  let status: SearchStatus;
  if (!active) status = { kind: "tooShort" };
  else if (current && "error" in current) status = { kind: "failed", error: current.error };
  else if (!current) status = { kind: "searching" };
  else if (count === 0) status = { kind: "noResults" };
  else status = { kind: "found", count };
  return { active, current, shown, count, status };
}
