import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";
import { truncateThreadName } from "./names.ts";
import { rowState } from "./thread_list.ts";
import { ThreadMenu } from "./ThreadMenu.tsx";
import type { ThreadItem } from "./use_threads.ts";

/**
 * One named thread in the sidebar: its link (or "deleted" once it is deleted or marked), and either its ⋯ menu
 * or, while Control or Meta is held, the mark that selects it for deletion.
 */
export function ThreadRow(
  { workspaceSlug, thread, marked, current, multiDelete, onToggleMark, onRename, onDelete }: {
    workspaceSlug: string;
    thread: ThreadItem;
    marked: ReadonlySet<string>;
    current: string | null | undefined;
    multiDelete: boolean;
    onToggleMark: () => void;
    onRename: () => void;
    onDelete: () => void;
  },
) {
  const { t } = useTranslation();
  const { isMarked, gone, active } = rowState(thread, marked, current);
  return (
    <li className={`thread-item${gone ? " deleted" : ""}`}>
      {gone ? <span className="thread-link deleted" title={thread.name}>{t("threads.deleted")}</span> : (
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
          onClick={onToggleMark}
        >
          <span aria-hidden="true">✕</span>
        </button>
      )}
      {!multiDelete && !thread.deleted && (
        <ThreadMenu name={thread.name} onRename={onRename} onDelete={onDelete} />
      )}
    </li>
  );
}
