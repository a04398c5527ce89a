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

const matches = (name: string, term: string) => {
  const lower = name.toLowerCase();
  return lower.includes(term) || distance(lower, term) <= FUZZY_EDITS;
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
