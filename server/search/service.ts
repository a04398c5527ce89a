import { and, asc, eq, inArray } from "drizzle-orm";
import { distance } from "fastest-levenshtein";
import { workspaceThreads } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { listWorkspaces } from "../workspaces/service.ts";
import { MIN_SEARCH_CHARS, type SearchAnswer } from "../../shared/api/search.ts";

/** Names this many edits away from the term still match (a typo or two). */
const FUZZY_EDITS = 3;
/** The most results of each kind: the sidebar shows a short list. */
const MAX_RESULTS = 50;

const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** A typo's worth of edits for one word: none for short words, where one edit makes another word. */
const wordEdits = (word: string) => (word.length < 4 ? 0 : word.length < 8 ? 1 : 2);

/**
 * The name contains the term, or is a few edits from it as a whole, or every word of the term is a word of the
 * name (or the start of one) give or take a typo: "astronmy" finds "Astronomy Notes".
 */
const matches = (name: string, term: string) => {
  const lower = name.toLowerCase();
  if (lower.includes(term) || distance(lower, term) <= FUZZY_EDITS) return true;
  const nameWords = words(lower);
  return words(term).every((wanted) =>
    nameWords.some((word) =>
      distance(word, wanted) <= wordEdits(wanted) ||
      distance(word.slice(0, wanted.length), wanted) <= wordEdits(wanted)
    )
  );
};

/**
 * Workspaces the caller can see and the caller's own threads in them (every thread in single-user mode) whose
 * name contains the term, or is within a few edits of it.
 */
export async function searchNames(deps: Deps, actor: Actor, searchTerm: string): Promise<SearchAnswer> {
  const term = searchTerm.trim().toLowerCase();
  if (term.length < MIN_SEARCH_CHARS) return { workspaces: [], threads: [] };
  const visible = await listWorkspaces(deps, actor);
  if (visible.length === 0) return { workspaces: [], threads: [] };
  const byId = new Map(visible.map((workspace) => [workspace.id, workspace]));
  const threads = await deps.db.select({
    slug: workspaceThreads.slug,
    name: workspaceThreads.name,
    workspaceId: workspaceThreads.workspaceId,
  }).from(workspaceThreads).where(and(
    inArray(workspaceThreads.workspaceId, [...byId.keys()]),
    actor.multiUser && actor.userId !== null ? eq(workspaceThreads.userId, actor.userId) : undefined,
  )).orderBy(asc(workspaceThreads.id));
  return {
    workspaces: visible.filter((workspace) => matches(workspace.name, term)).slice(0, MAX_RESULTS)
      .map(({ slug, name }) => ({ slug, name })),
    threads: threads.filter((thread) => matches(thread.name, term)).slice(0, MAX_RESULTS).map((thread) => {
      const workspace = byId.get(thread.workspaceId)!;
      return {
        slug: thread.slug,
        name: thread.name,
        workspace: { slug: workspace.slug, name: workspace.name },
      };
    }),
  };
}
