import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { toast } from "../../lib/toast.ts";
import { useWorkspaceRoleReaches } from "../workspace_roles/use_workspace_role.ts";
import { formatDate } from "../dates.ts";
import {
  clearPromptHistory,
  deletePromptHistoryEntry,
  fetchPromptHistory,
  type PromptHistoryEntry,
} from "./api.ts";
import { clipPrompt } from "./prompt_clip.ts";

type Props = {
  slug: string;
  /** The workspace's stored prompt: a save that replaces it adds an entry, so the list loads again. */
  stored: string | null;
  /** Puts an earlier prompt into the prompt field; the person saves it as any other change. */
  onUse: (prompt: string) => void;
};

type Deleting = { entry: PromptHistoryEntry } | "all";

/**
 * The workspace's earlier system prompts under its prompt field, newest first: when and by whom each was
 * replaced, the prompt clipped with "Show all", "Use this prompt"; the workspace's editors delete one or all.
 */
export function PromptHistory({ slug, stored, onUse }: Props) {
  const { t } = useTranslation();
  const k = (key: string, options?: Record<string, unknown>) =>
    t(`workspaceSettings.promptHistory.${key}`, options ?? {});
  const canDelete = useWorkspaceRoleReaches("editor");
  const [entries, setEntries] = useState<PromptHistoryEntry[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = useCallback((signal?: AbortSignal) => {
    setLoadError(null);
    return fetchPromptHistory(slug, signal).then(setEntries, (caught: Error) => {
      if (caught.name !== "AbortError") setLoadError(caught.message);
    });
  }, [slug]);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load, stored]);

  function toggle(id: number) {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    try {
      if (deleting === "all") {
        await clearPromptHistory(slug, k("clearFailedFallback"));
        setEntries([]);
        toast.success(k("cleared"));
      } else {
        const { id } = deleting.entry;
        await deletePromptHistoryEntry(id, k("deleteFailedFallback"));
        setEntries((current) => current?.filter((entry) => entry.id !== id) ?? current);
        toast.success(k("deleted"));
      }
    } catch (caught) {
      const error = caught instanceof Error ? caught.message : String(caught);
      toast.error(k(deleting === "all" ? "clearFailed" : "deleteFailed", { error }));
      // Someone else may have changed the history meanwhile: show what the server holds now.
      await load();
    }
    setBusy(false);
    setDeleting(null);
    // The button that opened the dialog may be gone with its entry.
    heading.current?.focus();
  }

  function use(entry: PromptHistoryEntry) {
    onUse(entry.prompt);
    toast.info(k("usedNotice"));
  }

  return (
    <div className="ws-prompt-history" role="group" aria-labelledby="ws-prompt-history-title">
      <div className="ws-prompt-history-head">
        <h3 id="ws-prompt-history-title" ref={heading} tabIndex={-1} className="ws-prompt-history-title">
          {k("title")}
        </h3>
        {canDelete && entries !== null && entries.length > 0 && (
          <button
            type="button"
            className="button secondary small ws-danger-text"
            data-requires="adminOrManager"
            onClick={() => setDeleting("all")}
          >
            {k("clear")}
          </button>
        )}
      </div>
      {loadError && <p className="form-error" role="alert">{k("loadFailed", { error: loadError })}</p>}
      {!loadError && entries === null && <p className="muted small">{k("loading")}</p>}
      {entries !== null && entries.length === 0 && <p className="muted small">{k("empty")}</p>}
      {entries !== null && entries.length > 0 && (
        <ol className="ws-prompt-history-list">
          {entries.map((entry) => {
            const { text, clipped } = clipPrompt(entry.prompt);
            const open = expanded.has(entry.id);
            const when = formatDate(entry.modifiedAt);
            const who = entry.user ? entry.user.username : k("unknownUser");
            const label = k("entryLabel", { when, who });
            return (
              <li key={entry.id} className="ws-prompt-history-entry" aria-label={label}>
                <p className="ws-prompt-history-meta muted small">
                  <time dateTime={entry.modifiedAt}>{when}</time> · {who}
                </p>
                <p id={`ws-prompt-history-${entry.id}`} className="ws-prompt-history-prompt">
                  {open ? entry.prompt : text}
                </p>
                <div className="ws-prompt-history-actions">
                  {clipped && (
                    <button
                      type="button"
                      className="link-button"
                      aria-expanded={open}
                      aria-controls={`ws-prompt-history-${entry.id}`}
                      onClick={() => toggle(entry.id)}
                    >
                      {open ? k("showLess") : k("showAll")}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button secondary small"
                    onClick={() => use(entry)}
                  >
                    {k("use")}
                  </button>
                  {canDelete && (
                    <button
                      type="button"
                      className="button secondary small ws-danger-text"
                      data-requires="adminOrManager"
                      onClick={() => setDeleting({ entry })}
                    >
                      {k("delete")}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting === "all" ? k("clearTitle") : k("deleteTitle")}
        message={deleting === "all"
          ? k("clearMessage")
          : k("deleteMessage", { when: deleting ? formatDate(deleting.entry.modifiedAt) : "" })}
        confirmLabel={deleting === "all" ? k("clear") : k("delete")}
        busy={busy}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
