import { useCallback, useEffect, useRef, useState } from "react";
import type { LocalFile } from "../../../shared/api/library.ts";
import { fetchPage, PAGE_SIZE } from "./api.ts";

interface Store {
  key: string;
  pages: Map<number, LocalFile[]>;
  /** The previous listing of the same folder and search, shown until its fresh pages arrive. */
  stale: Map<number, LocalFile[]>;
  loading: Set<number>;
  abort: AbortController;
}

/**
 * The documents of a folder (or of every folder), loaded a page at a time as rows come into view. `version`
 * reloads the same listing after a change without blanking it meanwhile.
 */
export function usePagedFiles(folder: string | null, query: string, version: number) {
  const listing = `${folder}\u0000${query}`;
  const key = `${listing}\u0000${version}`;
  const store = useRef<Store>({
    key: "",
    pages: new Map(),
    stale: new Map(),
    loading: new Set(),
    abort: new AbortController(),
  });
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, setLoaded] = useState(0);

  const load = useCallback((current: Store, pageIndex: number) => {
    if (folder === null || current.pages.has(pageIndex) || current.loading.has(pageIndex)) return;
    current.loading.add(pageIndex);
    fetchPage(folder, query, pageIndex * PAGE_SIZE, current.abort.signal)
      .then((page) => {
        if (store.current !== current) return;
        current.pages.set(pageIndex, page.items);
        current.stale.delete(pageIndex);
        setTotal(page.total);
        setError(null);
        setLoaded((count) => count + 1);
      })
      .catch((caught: Error) => {
        if (store.current === current && !current.abort.signal.aborted) setError(caught.message);
      })
      .finally(() => current.loading.delete(pageIndex));
  }, [folder, query]);

  useEffect(() => {
    const previous = store.current;
    previous.abort.abort();
    const sameListing = previous.key.startsWith(`${listing}\u0000`);
    const current: Store = {
      key,
      pages: new Map(),
      stale: sameListing ? new Map([...previous.stale, ...previous.pages]) : new Map(),
      loading: new Set(),
      abort: new AbortController(),
    };
    store.current = current;
    if (!sameListing) setTotal(null);
    setError(null);
    load(current, 0);
    return () => current.abort.abort();
  }, [key]);

  /** Loads the pages that hold rows `start` to `end` (exclusive). */
  const ensure = useCallback((start: number, end: number) => {
    const current = store.current;
    for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor((end - 1) / PAGE_SIZE); page++) {
      load(current, page);
    }
  }, [load]);

  const item = (index: number): LocalFile | undefined => {
    const page = Math.floor(index / PAGE_SIZE);
    const { pages, stale } = store.current;
    return (pages.get(page) ?? stale.get(page))?.[index % PAGE_SIZE];
  };

  return { total, error, ensure, item };
}
