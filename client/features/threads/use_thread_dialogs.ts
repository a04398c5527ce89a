import { useEffect, useRef, useState } from "react";
import type { ThreadItem } from "./use_threads.ts";

/**
 * The thread being renamed or deleted, and where focus goes when its dialog closes: back to the ⋯ button that
 * opened it, or, when that row is gone with its thread, to the default thread's link (`fallback`).
 */
export function useThreadDialogs() {
  const [renaming, setRenaming] = useState<ThreadItem | null>(null);
  const [deleting, setDeleting] = useState<ThreadItem | null>(null);
  // The menu focuses its ⋯ button before it calls Rename or Delete; focus goes back there after the dialog.
  const opener = useRef<HTMLElement | null>(null);
  const fallback = useRef<HTMLAnchorElement>(null);
  const dialogOpen = renaming !== null || deleting !== null;

  // The dialogs' own effects run first (children go first), so the page is no longer inert here.
  useEffect(() => {
    if (dialogOpen || !opener.current) return;
    const target = opener.current.isConnected ? opener.current : fallback.current;
    opener.current = null;
    target?.focus();
  }, [dialogOpen]);

  const remember = () => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  };
  return {
    renaming,
    deleting,
    dialogOpen,
    fallback,
    openRename(thread: ThreadItem) {
      remember();
      setRenaming(thread);
    },
    openDelete(thread: ThreadItem) {
      remember();
      setDeleting(thread);
    },
    closeRename: () => setRenaming(null),
    closeDelete: () => setDeleting(null),
  };
}
