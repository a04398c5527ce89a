import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from "react";
import { listThreads } from "./api.ts";
import { THREAD_CREATED, THREAD_RENAMED } from "./events.ts";
import { loadSchemas } from "../../lib/lazy_schema.ts";
import { type ThreadEvent, type ThreadItem, withThreadEvent } from "./thread_list.ts";

export type { ThreadItem } from "./thread_list.ts";

export interface ThreadsState {
  /** null while loading (or without a workspace). */
  threads: ThreadItem[] | null;
  error: string | null;
  setThreads: Dispatch<SetStateAction<ThreadItem[] | null>>;
}

/**
 * The threads of the active workspace, kept in step with the window events other islands dispatch: a thread
 * renamed after its first message, a thread created by a fork.
 */
export function useThreads(workspaceSlug: string | null): ThreadsState {
  const [threads, setThreads] = useState<ThreadItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Events heard while the list loads wait for it: a thread renamed by the first message sent before the list
  // arrived would otherwise keep its old name in the sidebar.
  const loaded = useRef(false);
  const pending = useRef<ThreadEvent[]>([]);

  useEffect(() => {
    if (!workspaceSlug) return;
    const abort = new AbortController();
    loaded.current = false;
    pending.current = [];
    setThreads(null);
    setError(null);
    listThreads(workspaceSlug, abort.signal)
      .then((list) => {
        if (abort.signal.aborted) return;
        const items: ThreadItem[] | null = list.map(({ id, slug, name }) => ({ id, slug, name }));
        loaded.current = true;
        setThreads(pending.current.reduce(withThreadEvent, items));
        pending.current = [];
      })
      .catch((caught: Error) => {
        if (!abort.signal.aborted) setError(caught.message);
      });
    return () => abort.abort();
  }, [workspaceSlug]);

  useEffect(() => {
    const apply = (event: ThreadEvent) => {
      if (loaded.current) setThreads((current) => withThreadEvent(current, event));
      else pending.current.push(event);
    };
    // The details' schemas come with the page's first API call; an event heard before waits for them.
    const renamed = async (event: Event) => {
      const { threads } = await loadSchemas();
      const detail = threads.ThreadRenamedDetail.safeParse((event as CustomEvent).detail);
      if (!detail.success) return;
      const { slug, name } = detail.data;
      apply({ kind: "renamed", slug, name });
    };
    const created = async (event: Event) => {
      const { threads } = await loadSchemas();
      const detail = threads.ThreadCreatedDetail.safeParse((event as CustomEvent).detail);
      if (!detail.success) return;
      const { id, slug, name } = detail.data.thread;
      apply({ kind: "created", id, slug, name });
    };
    globalThis.addEventListener(THREAD_RENAMED, renamed);
    globalThis.addEventListener(THREAD_CREATED, created);
    return () => {
      globalThis.removeEventListener(THREAD_RENAMED, renamed);
      globalThis.removeEventListener(THREAD_CREATED, created);
    };
  }, []);

  return { threads, error, setThreads };
}

/** Whether Control or Meta is held down: the thread list's multi-delete mode. */
export function useModifierHeld(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const modifier = (event: KeyboardEvent) => event.key === "Control" || event.key === "Meta";
    const down = (event: KeyboardEvent) => {
      if (modifier(event)) setHeld(true);
    };
    // Released with the other one still down (Control and Meta together), the mode stays.
    const up = (event: KeyboardEvent) => {
      if (modifier(event)) setHeld(event.ctrlKey || event.metaKey);
    };
    // A key released while the window had no focus sends no keyup.
    const reset = () => setHeld(false);
    const hidden = () => {
      if (document.visibilityState === "hidden") setHeld(false);
    };
    globalThis.addEventListener("keydown", down);
    globalThis.addEventListener("keyup", up);
    globalThis.addEventListener("blur", reset);
    document.addEventListener("visibilitychange", hidden);
    return () => {
      globalThis.removeEventListener("keydown", down);
      globalThis.removeEventListener("keyup", up);
      globalThis.removeEventListener("blur", reset);
      document.removeEventListener("visibilitychange", hidden);
    };
  }, []);
  return held;
}
