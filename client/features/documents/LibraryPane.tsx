import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_FOLDER, type FolderShell, type LocalFile } from "../../../shared/api/library.ts";
import type { WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { TextField } from "../../components/TextField.tsx";
import { toast } from "../../lib/toast.ts";
import { useDebounced } from "../settings/use_debounced.ts";
import {
  ALL_FOLDERS,
  createFolder,
  fetchFolders,
  moveFiles,
  removeDocuments,
  removeFolder,
  updateEmbeddings,
} from "./api.ts";
import { fileOf, formatCount, formatPublished } from "./format.ts";
import { usePagedFiles } from "./use_paged_files.ts";
import { VirtualList } from "./VirtualList.tsx";

const ROW_HEIGHT = 56;
/** update-embeddings takes at most this many adds per call. */
const ADD_BATCH = 1000;

type Confirm = { kind: "documents"; count: number } | { kind: "folder"; name: string } | null;

function LibraryRow(
  { file, selected, inWorkspace, onToggle }: {
    file: LocalFile;
    selected: boolean;
    inWorkspace: boolean;
    onToggle: (location: string) => void;
  },
) {
  const { t } = useTranslation();
  const published = formatPublished(file.published);
  return (
    <label className={`doc-row${selected ? " selected" : ""}`} title={file.location}>
      <input type="checkbox" checked={selected} onChange={() => onToggle(file.location)} />
      <span className="doc-row-main">
        <span className="doc-title">{file.title}</span>
        <span className="doc-meta">
          {t("documents.size", {
            words: formatCount(file.wordCount),
            tokens: formatCount(file.token_count_estimate),
          })}
          {published && ` · ${published}`}
        </span>
      </span>
      {inWorkspace && <span className="doc-badge">{t("documents.library.inWorkspace")}</span>}
    </label>
  );
}

/**
 * Every stored document, folder by folder, listed a page at a time: search, select several, add them to the
 * workspace, move them to another folder or delete them; create and delete folders.
 */
export function LibraryPane(
  { slug, inWorkspace, version, onWorkspace, refreshWorkspace }: {
    slug: string;
    inWorkspace: Set<string>;
    /** Raised by the owner when the library changed (an upload finished). */
    version: number;
    onWorkspace: (workspace: WorkspaceDetail) => void;
    refreshWorkspace: () => Promise<void>;
  },
) {
  const { t } = useTranslation();
  const [folders, setFolders] = useState<FolderShell[]>([]);
  const [folder, setFolder] = useState(DEFAULT_FOLDER);
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 250);
  const [changes, setChanges] = useState(0);
  const files = usePagedFiles(folder, query, version + changes);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [newFolder, setNewFolder] = useState<{ name: string; error: string | null } | null>(null);
  const [moveTarget, setMoveTarget] = useState("");

  useEffect(() => {
    const abort = new AbortController();
    fetchFolders(abort.signal).then(setFolders).catch((caught: Error) => {
      if (!abort.signal.aborted) toast.error(caught.message);
    });
    return () => abort.abort();
  }, [version, changes]);

  useEffect(() => setSelected(new Set()), [folder]);

  const toggle = useCallback((location: string) => {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(location)) next.delete(location);
      else next.add(location);
      return next;
    });
  }, []);

  /** Runs one action with the buttons disabled; the library and the workspace are read again after it. */
  async function act(label: string, work: () => Promise<void>, refresh = true) {
    setBusy(label);
    try {
      await work();
    } catch (caught) {
      toast.error((caught as Error).message);
    } finally {
      setBusy(null);
      if (refresh) {
        setChanges((count) => count + 1);
        await refreshWorkspace().catch(() => {});
      }
    }
  }

  const addSelected = () =>
    act("add", async () => {
      const adds = [...selected].filter((location) => !inWorkspace.has(location));
      const failures: string[] = [];
      for (let start = 0; start < adds.length; start += ADD_BATCH) {
        const answer = await updateEmbeddings(slug, { adds: adds.slice(start, start + ADD_BATCH) });
        if (answer.workspace) onWorkspace(answer.workspace);
        if (answer.message) failures.push(answer.message);
      }
      setSelected(new Set());
      if (failures.length > 0) toast.error(failures.join("\n\n"));
      else toast.success(t("documents.library.added", { count: adds.length }));
    }, false);

  const moveSelected = () =>
    act("move", async () => {
      if (!moveTarget) return;
      const files = [...selected].map((from) => ({ from, to: `${moveTarget}/${fileOf(from)}` }));
      try {
        await moveFiles(files, t("documents.library.moveFailed"));
        toast.success(t("documents.library.moved", { count: files.length, folder: moveTarget }));
      } finally {
        setSelected(new Set());
      }
    });

  const deleteSelected = () =>
    act("delete", async () => {
      const names = [...selected];
      setConfirm(null);
      await removeDocuments(names);
      setSelected(new Set());
      toast.success(t("documents.library.deleted", { count: names.length }));
    });

  const deleteFolder = (name: string) =>
    act("deleteFolder", async () => {
      setConfirm(null);
      await removeFolder(name);
      setFolder(DEFAULT_FOLDER);
      toast.success(t("documents.folders.deleted", { name }));
    });

  async function submitFolder(event: FormEvent) {
    event.preventDefault();
    if (!newFolder) return;
    setBusy("folder");
    try {
      const name = await createFolder(newFolder.name);
      setNewFolder(null);
      setChanges((count) => count + 1);
      setFolder(name);
      toast.success(t("documents.folders.created", { name }));
    } catch (caught) {
      setNewFolder({ ...newFolder, error: (caught as Error).message });
    } finally {
      setBusy(null);
    }
  }

  const total = files.total;
  const targets = folders.filter((shell) => shell.name !== folder);
  const chosenTarget = targets.some((shell) => shell.name === moveTarget) ? moveTarget : "";
  const removable = folder !== DEFAULT_FOLDER && folder !== ALL_FOLDERS;
  const countLabel = total === null
    ? t("documents.library.loading")
    : query
    ? t("documents.library.matches", { count: total })
    : t("documents.library.count", { count: total });

  return (
    <section className="doc-pane doc-library" aria-labelledby="library-heading">
      <div className="doc-pane-head">
        <h3 id="library-heading" className="doc-pane-title">{t("documents.library.heading")}</h3>
        <span className="muted small" aria-live="polite">{countLabel}</span>
      </div>
      <div className="doc-toolbar">
        <select
          className="select doc-folder-select"
          aria-label={t("documents.folders.label")}
          value={folder}
          onChange={(event) => setFolder(event.target.value)}
        >
          <option value={ALL_FOLDERS}>{t("documents.folders.all")}</option>
          {folders.map((shell) => (
            <option key={shell.name} value={shell.name}>
              {t("documents.folders.option", { name: shell.name, count: shell.fileCount })}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button secondary small-button"
          onClick={() => setNewFolder({ name: "", error: null })}
        >
          {t("documents.folders.new")}
        </button>
        {removable && (
          <button
            type="button"
            className="button secondary small-button danger-text"
            disabled={busy !== null}
            onClick={() => setConfirm({ kind: "folder", name: folder })}
          >
            {t("documents.folders.delete")}
          </button>
        )}
      </div>
      <input
        type="search"
        className="input doc-search"
        placeholder={t("documents.library.search")}
        aria-label={t("documents.library.search")}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {files.error && (
        <div className="form-error doc-list-error" role="alert">
          {files.error}{" "}
          <button type="button" className="link-button" onClick={() => setChanges((count) => count + 1)}>
            {t("documents.retry")}
          </button>
        </div>
      )}
      {total === 0
        ? (
          <p className="muted doc-empty">
            {query ? t("documents.library.noMatch", { query }) : t("documents.library.empty")}
          </p>
        )
        : (
          <VirtualList
            count={total ?? 0}
            rowHeight={ROW_HEIGHT}
            className="library-list"
            label={t("documents.library.listLabel")}
            onRange={files.ensure}
            // By position: while a changed listing reloads, old and new pages may briefly hold the same file.
            rowKey={(index) => index}
            renderRow={(index) => {
              const file = files.item(index);
              if (!file) return <div className="doc-row placeholder" aria-hidden="true" />;
              return (
                <LibraryRow
                  file={file}
                  selected={selected.has(file.location)}
                  inWorkspace={inWorkspace.has(file.location)}
                  onToggle={toggle}
                />
              );
            }}
          />
        )}
      {selected.size > 0
        ? (
          <div className="doc-selection" role="group" aria-label={t("documents.library.selectionLabel")}>
            <span className="doc-selection-count">
              {t("documents.library.selected", { count: selected.size })}
            </span>
            <button
              type="button"
              className="button primary small-button"
              disabled={busy !== null}
              onClick={addSelected}
            >
              {busy === "add" ? t("documents.library.adding") : t("documents.library.add")}
            </button>
            <span className="doc-move">
              <select
                className="select small-select"
                aria-label={t("documents.library.moveTo")}
                value={chosenTarget}
                onChange={(event) => setMoveTarget(event.target.value)}
              >
                <option value="">{t("documents.library.moveTo")}</option>
                {targets.map((shell) => <option key={shell.name} value={shell.name}>{shell.name}</option>)}
              </select>
              <button
                type="button"
                className="button secondary small-button"
                disabled={busy !== null || !chosenTarget}
                onClick={moveSelected}
              >
                {t("documents.library.move")}
              </button>
            </span>
            <button
              type="button"
              className="button secondary small-button danger-text"
              disabled={busy !== null}
              onClick={() => setConfirm({ kind: "documents", count: selected.size })}
            >
              {t("documents.library.delete")}
            </button>
            <button type="button" className="link-button small" onClick={() => setSelected(new Set())}>
              {t("documents.library.clear")}
            </button>
          </div>
        )
        : <p className="muted small doc-hint">{t("documents.library.hint")}</p>}

      <Dialog
        open={confirm !== null}
        title={confirm?.kind === "folder"
          ? t("documents.folders.confirmTitle", { name: confirm.name })
          : t("documents.library.confirmTitle", { count: confirm?.count ?? 0 })}
        onClose={() => setConfirm(null)}
      >
        <p>
          {confirm?.kind === "folder"
            ? t("documents.folders.confirmBody")
            : t("documents.library.confirmBody")}
        </p>
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={() => setConfirm(null)}>
            {t("common.cancel")}
          </button>
          <button
            type="button"
            className="button danger"
            onClick={() => confirm?.kind === "folder" ? deleteFolder(confirm.name) : deleteSelected()}
          >
            {t("documents.library.confirmDelete")}
          </button>
        </div>
      </Dialog>
      <Dialog
        open={newFolder !== null}
        title={t("documents.folders.newTitle")}
        onClose={() => setNewFolder(null)}
      >
        <form className="form" onSubmit={submitFolder}>
          <TextField
            id="new-folder-name"
            label={t("documents.folders.name")}
            hint={t("documents.folders.nameHint")}
            error={newFolder?.error ?? undefined}
            value={newFolder?.name ?? ""}
            maxLength={64}
            required
            autoFocus
            onChange={(event) => setNewFolder({ name: event.target.value, error: null })}
          />
          <div className="form-actions">
            <button type="button" className="button secondary" onClick={() => setNewFolder(null)}>
              {t("common.cancel")}
            </button>
            <button
              type="submit"
              className="button primary"
              disabled={busy === "folder" || !newFolder?.name.trim()}
            >
              {t("documents.folders.create")}
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}
