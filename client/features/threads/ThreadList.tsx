import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";
import { toast } from "../../lib/toast.ts";
import { createThread, deleteThread, deleteThreads, type Thread } from "./api.ts";
import { markedDeletedIn, renamedIn, showsOneOf, toggledMark, withoutThreads } from "./thread_list.ts";
import { ThreadRow } from "./ThreadRow.tsx";
import { useThreadDialogs } from "./use_thread_dialogs.ts";
import { type ThreadItem, type ThreadsState, useModifierHeld } from "./use_threads.ts";

// The dialogs load when first opened: they are not in the chat page's first load (issue 21).
const ConfirmDialog = lazy(() =>
  import("../../components/ConfirmDialog.tsx").then((module) => ({ default: module.ConfirmDialog }))
);
const RenameThreadDialog = lazy(() =>
  import("./RenameThreadDialog.tsx").then((module) => ({ default: module.RenameThreadDialog }))
);

/** How long a deleted thread stays in the list, marked, before it goes. */
const DELETE_ANIMATION_MS = 500;

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
  const [deleteBusy, setDeleteBusy] = useState(false);
  const dialogs = useThreadDialogs();
  // Control pressed in a dialog (Control+A in the name field) must not swap the rows' menus for delete marks.
  const multiDelete = useModifierHeld() && !dialogs.dialogOpen;

  // Releasing the key leaves multi-delete mode and forgets the marks.
  useEffect(() => {
    if (!multiDelete) setMarked(new Set());
  }, [multiDelete]);

  const leaveIfShown = (slugs: string[]) => {
    if (showsOneOf(current, slugs)) globalThis.location.assign(paths.workspace(workspaceSlug));
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

  function renamed(thread: Thread) {
    setThreads((list) => renamedIn(list, thread));
    dialogs.closeRename();
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
      dialogs.closeDelete();
    }
    toast.success(t("threads.deleteSucceeded"));
    setThreads((list) => markedDeletedIn(list, thread.slug));
    setTimeout(() => setThreads((list) => withoutThreads(list, [thread.slug])), DELETE_ANIMATION_MS);
    leaveIfShown([thread.slug]);
  }

  async function removeMarked() {
    const slugs = [...marked];
    if (slugs.length === 0) return;
    setBulkDeleting(true);
    try {
      await deleteThreads(workspaceSlug, slugs);
      setThreads((list) => withoutThreads(list, slugs));
      setMarked(new Set());
      toast.success(t("threads.deleteSucceeded"));
      leaveIfShown(slugs);
    } catch {
      toast.error(t("threads.deleteFailed"));
    } finally {
      setBulkDeleting(false);
    }
  }

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
            ref={dialogs.fallback}
            className={`thread-link${defaultActive ? " active" : ""}`}
            href={paths.workspace(workspaceSlug)}
            aria-current={defaultActive ? "page" : undefined}
          >
            {t("threads.default")}
          </a>
        </li>
        {threads.map((thread) => (
          <ThreadRow
            key={thread.slug}
            workspaceSlug={workspaceSlug}
            thread={thread}
            marked={marked}
            current={current}
            multiDelete={multiDelete}
            onToggleMark={() => setMarked((previous) => toggledMark(previous, thread.slug))}
            onRename={() => dialogs.openRename(thread)}
            onDelete={() => dialogs.openDelete(thread)}
          />
        ))}
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
      <Suspense fallback={null}>
        {dialogs.renaming && (
          <RenameThreadDialog
            workspaceSlug={workspaceSlug}
            thread={dialogs.renaming}
            onRenamed={renamed}
            onClose={dialogs.closeRename}
          />
        )}
        {dialogs.deleting !== null && (
          <ConfirmDialog
            open
            title={t("threads.delete")}
            message={t("threads.deleteConfirm")}
            confirmLabel={t("threads.delete")}
            busy={deleteBusy}
            onConfirm={() => dialogs.deleting && remove(dialogs.deleting)}
            onClose={() => !deleteBusy && dialogs.closeDelete()}
          />
        )}
      </Suspense>
    </div>
  );
}
