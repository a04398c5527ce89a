import { useEffect, useSyncExternalStore } from "react";

/**
 * The chat markdown renderer (markdown-it, highlight.js) is not part of a page's first load: it is fetched when
 * the chat island asks for it (`preloadMarkdown`, as the chat opens, alongside the history's request) or a
 * message first needs it. `useMarkdown` gives the renderer once it is in, and renders again when it arrives and
 * whenever a highlighting language arrives.
 */
export type MarkdownRenderer = typeof import("./markdown.ts");

let state: { renderer: MarkdownRenderer | null } = { renderer: null };
let loading: Promise<MarkdownRenderer> | null = null;
const listeners = new Set<() => void>();

function changed(renderer: MarkdownRenderer) {
  state = { renderer };
  for (const listener of listeners) listener();
}

/** Starts fetching the renderer (once); resolves to it. */
export function preloadMarkdown(): Promise<MarkdownRenderer> {
  loading ??= import("./markdown.ts").then((renderer) => {
    renderer.onMarkdownChange(() => changed(renderer));
    changed(renderer);
    return renderer;
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The renderer, or null while it loads; `state` is a new object on every change (a highlighting language
 * arrived), so memoized renders keyed on it run again.
 */
export function useMarkdown(): { renderer: MarkdownRenderer | null } {
  const current = useSyncExternalStore(subscribe, () => state, () => state);
  useEffect(() => {
    if (!current.renderer) preloadMarkdown().catch(() => {});
  }, [current.renderer]);
  return current;
}
