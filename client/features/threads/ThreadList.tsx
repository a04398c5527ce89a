import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { toast } from "../../lib/toast.ts";
import { createThread, deleteThread, deleteThreads, type Thread } from "./api.ts";
import { truncateThreadName } from "./names.ts";
import { RenameThreadDialog } from "./RenameThreadDialog.tsx";
import { ThreadMenu } from "./ThreadMenu.tsx";
import { type ThreadItem, type ThreadsState, useModifierHeld } from "./use_threads.ts";

/** How long a deleted thread stays in the list, marked, before it goes. */
export const DELETE_ANIMATION_MS = 500;

/**
 * The threads of the active workspace under its entry in the sidebar: the default thread, the
 * named threads with their menus, New Thread; holding Control or Meta marks threads for deletion.
 *
 * `current` is the thread the page shows: a slug, null for the default thread, undefined when the page shows
 * no chat (the workspace's settings).
 */
export function ThreadList(
  { workspaceSlug, workspaceName, state, current }: {
    workspaceSlug: string;
    workspaceName: string;
    state: ThreadsState;
    current: string | null | undefined;
  },
) {
  const { t } = useTranslation();
  const { threads, error, setThreads } = state;
  const [starting, setStarting] = useState(false);
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());
  const [bulkDeleting, setBulkDeleting] = useState(false);
  const [renaming, setRenaming] = useState<ThreadItem | null>(null);
  const [deleting, setDeleting] = useState<ThreadItem | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  // The menu focuses its ⋯ button before it calls Rename or Delete; focus goes back there after the dialog.
  const opener = useRef<HTMLElement | null>(null);
  const defaultLink = useRef<HTMLAnchorElement>(null);
  // Control pressed in a dialog (Control+A in the name field) must not swap the rows' menus for delete marks.
  const dialogOpen = renaming !== null || deleting !== null;
  const multiDelete = useModifierHeld() && !dialogOpen;

  // Releasing the key leaves multi-delete mode and forgets the marks.
  useEffect(() => {
    if (!multiDelete) setMarked(new Set());
  }, [multiDelete]);

  const leaveIfShown = (slugs: string[]) => {
    if (typeof current === "string" && slugs.includes(current)) {
      globalThis.location.assign(paths.workspace(workspaceSlug));
    }
  };

  async function startThread() {
    setStarting(true);
    try {
      const thread = await createThread(workspaceSlug);
      globalThis.location.assign(paths.thread(workspaceSlug, thread.slug));
    } catch (caught) {
      toast.error(t("threads.createFailed", { error: (caught as Error).message }));
      setStarting(false);
    }
  }

  // The dialogs' own effects run first (children go first), so the page is no longer inert here. A deleted
  // thread's ⋯ is gone with its row; focus then goes to the default thread, at the top of the same list.
  useEffect(() => {
    if (dialogOpen || !opener.current) return;
    const target = opener.current.isConnected ? opener.current : defaultLink.current;
    opener.current = null;
    target?.focus();
  }, [dialogOpen]);

  const openDialog = (open: () => void) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    open();
  };

  function renamed(thread: Thread) {
    setThreads((list) =>
      list?.map((item) => (item.slug === thread.slug ? { ...item, name: thread.name } : item)) ?? list
    );
    setRenaming(null);
  }

  async function remove(thread: ThreadItem) {
    setDeleteBusy(true);
    try {
      await deleteThread(workspaceSlug, thread.slug);
    } catch {
      toast.error(t("threads.deleteFailed"));
      return;
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
    toast.success(t("threads.deleteSucceeded"));
    setThreads((list) =>
      list?.map((item) => (item.slug === thread.slug ? { ...item, deleted: true } : item)) ?? list
    );
    setTimeout(() => {
      setThreads((list) => list?.filter((item) => item.slug !== thread.slug) ?? list);
    }, DELETE_ANIMATION_MS);
    leaveIfShown([thread.slug]);
  }

  async function removeMarked() {
    const slugs = [...marked];
    if (slugs.length === 0) return;
    setBulkDeleting(true);
    try {
      await deleteThreads(workspaceSlug, slugs);
      setThreads((list) => list?.filter((item) => !slugs.includes(item.slug)) ?? list);
      setMarked(new Set());
      toast.success(t("threads.deleteSucceeded"));
      leaveIfShown(slugs);
    } catch {
      toast.error(t("threads.deleteFailed"));
    } finally {
      setBulkDeleting(false);
    }
  }

  const toggleMark = (slug: string) =>
    setMarked((previous) => {
      const next = new Set(previous);
      if (next.has(slug)) next.delete(slug);
      else next.add(slug);
      return next;
    });

  if (error) {
    return (
      <p className="threads-status form-error" role="alert">{t("threads.loadFailed", { message: error })}</p>
    );
  }
  if (threads === null) return <p className="threads-status muted">{t("threads.loading")}</p>;

  const defaultActive = current === null;
  return (
    <div className={`threads${multiDelete ? " multi-delete" : ""}`}>
      <ul className="thread-list" aria-label={t("threads.listLabel", { name: workspaceName })}>
        <li className="thread-item">
          <a
            ref={defaultLink}
            className={`thread-link${defaultActive ? " active" : ""}`}
            href={paths.workspace(workspaceSlug)}
            aria-current={defaultActive ? "page" : undefined}
          >
            {t("threads.default")}
          </a>
        </li>
        {threads.map((thread) => {
          const isMarked = marked.has(thread.slug);
          const gone = thread.deleted || isMarked;
          const active = thread.slug === current;
          return (
            <li key={thread.slug} className={`thread-item${gone ? " deleted" : ""}`}>
              {gone
                ? <span className="thread-link deleted" title={thread.name}>{t("threads.deleted")}</span>
                : (
                  <a
                    className={`thread-link${active ? " active" : ""}`}
                    href={paths.thread(workspaceSlug, thread.slug)}
                    title={thread.name}
                    aria-current={active ? "page" : undefined}
                  >
                    {truncateThreadName(thread.name)}
                  </a>
                )}
              {multiDelete && !thread.deleted && (
                <button
                  type="button"
                  className="icon-button thread-mark"
                  aria-pressed={isMarked}
                  aria-label={t("threads.markForDelete", { name: thread.name })}
                  title={t("threads.markForDelete", { name: thread.name })}
                  onClick={() => toggleMark(thread.slug)}
                >
                  <span aria-hidden="true">✕</span>
                </button>
              )}
              {!multiDelete && !thread.deleted && (
                <ThreadMenu
                  name={thread.name}
                  onRename={() => openDialog(() => setRenaming(thread))}
                  onDelete={() => openDialog(() => setDeleting(thread))}
                />
              )}
            </li>
          );
        })}
      </ul>
      {multiDelete && marked.size > 0 && (
        <button
          type="button"
          className="button danger block thread-delete-selected"
          disabled={bulkDeleting}
          onClick={removeMarked}
        >
          {t("threads.deleteSelected")}
        </button>
      )}
      <button type="button" className="thread-new" disabled={starting} onClick={startThread}>
        <span aria-hidden="true" className="thread-new-icon">+</span>
        {starting ? t("threads.starting") : t("threads.newThread")}
      </button>
      {renaming && (
        <RenameThreadDialog
          workspaceSlug={workspaceSlug}
          thread={renaming}
          onRenamed={renamed}
          onClose={() => setRenaming(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("threads.delete")}
        message={t("threads.deleteConfirm")}
        confirmLabel={t("threads.delete")}
        busy={deleteBusy}
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => !deleteBusy && setDeleting(null)}
      />
    </div>
  );
}
