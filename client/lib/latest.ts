import { useRef } from "react";

/**
 * Orders the loads of one piece of state (a list, a page, a count): each load takes a ticket when it starts, and
 * its answer may be shown only while the ticket is the newest. An older answer that arrives after a newer load
 * started (a reload after an action, a page asked for again) is dropped rather than shown over the newer one.
 */
export interface Latest {
  /** A new ticket: true while no later load has started and nothing has superseded it. */
  start(): () => boolean;
  /** Makes every ticket given so far stale (the state was set from another answer, e.g. an action's own). */
  supersede(): void;
}

export function latest(): Latest {
  let newest = 0;
  return {
    start() {
      const mine = ++newest;
      return () => mine === newest;
    },
    supersede() {
      newest++;
    },
  };
}

/** One `Latest` for the lifetime of a component. */
export function useLatest(): Latest {
  const ref = useRef<Latest | null>(null);
  if (ref.current === null) ref.current = latest();
  return ref.current;
}

/**
 * Reads a state that actions also set from their own answers (a workspace and its documents). Resolves to the
 * answer to show, or null when a newer read started meanwhile (it shows its own). A read overtaken by an action's
 * answer (`changes()` moved while it was on its way) may hold the state from before that action: it is made again.
 */
export async function readAfterChanges<T>(
  reads: Latest,
  changes: () => number,
  read: () => Promise<T>,
): Promise<T | null> {
  for (;;) {
    const current = reads.start();
    const before = changes();
    const answer = await read();
    if (!current()) return null;
    if (changes() === before) return answer;
  }
}
