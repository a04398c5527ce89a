/** A thread in the sidebar's list; `deleted` marks one on its way out. */
export interface ThreadItem {
  id?: number;
  slug: string;
  name: string;
  deleted?: boolean;
}

/** The sidebar's thread list; null while it loads. */
export type ThreadItems = ThreadItem[] | null;

/** The list with `thread` under its new name. */
export function renamedIn(list: ThreadItems, thread: { slug: string; name: string }): ThreadItems {
  return list?.map((item) => (item.slug === thread.slug ? { ...item, name: thread.name } : item)) ?? list;
}

/** What another island said about a thread (events.ts): renamed after its first message, or created by a fork. */
export type ThreadEvent =
  | { kind: "renamed"; slug: string; name: string }
  | { kind: "created"; id?: number; slug: string; name: string };

/**
 * The list after `event`. A list that was read before the event and arrives after it takes the event as well, so
 * it is applied again then: applying one twice changes nothing.
 */
export function withThreadEvent(list: ThreadItems, event: ThreadEvent): ThreadItems {
  if (!list) return list;
  if (event.kind === "renamed" || list.some((thread) => thread.slug === event.slug)) {
    return renamedIn(list, event);
  }
  return [...list, { id: event.id, slug: event.slug, name: event.name }];
}

/** The list with the thread `slug` marked deleted: it stays, shown as deleted, until it is taken out. */
export function markedDeletedIn(list: ThreadItems, slug: string): ThreadItems {
  return list?.map((item) => (item.slug === slug ? { ...item, deleted: true } : item)) ?? list;
}

/** The list without the threads `slugs`. */
export function withoutThreads(list: ThreadItems, slugs: readonly string[]): ThreadItems {
  return list?.filter((item) => !slugs.includes(item.slug)) ?? list;
}

/** The marks for multi-delete with `slug` marked if it was not, and unmarked if it was. */
export function toggledMark(marked: ReadonlySet<string>, slug: string): ReadonlySet<string> {
  const next = new Set(marked);
  if (next.has(slug)) next.delete(slug);
  else next.add(slug);
  return next;
}

/**
 * Whether the page shows one of the threads `slugs` (so it must leave when they are deleted). `current` is a
 * thread's slug, null for the default thread, undefined when the page shows no chat.
 */
export function showsOneOf(current: string | null | undefined, slugs: readonly string[]): boolean {
  return typeof current === "string" && slugs.includes(current);
}

/** How a thread's row shows: marked for deletion, shown as gone (deleted or marked), the page's thread. */
export function rowState(
  thread: ThreadItem,
  marked: ReadonlySet<string>,
  current: string | null | undefined,
) {
  const isMarked = marked.has(thread.slug);
  return { isMarked, gone: thread.deleted === true || isMarked, active: thread.slug === current };
}
