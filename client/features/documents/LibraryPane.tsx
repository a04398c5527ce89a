import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FolderShell } from "../../../shared/api/library.ts";
import { DEFAULT_FOLDER } from "../../../shared/limits.ts";
import type { WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import { toast } from "../../lib/toast.ts";
import { useDebounced } from "../settings/use_debounced.ts";
import {
  createFolder,
  fetchFolders,
  moveFiles,
  removeDocuments,
  removeFolder,
  updateEmbeddings,
} from "./api.ts";
import {
  addBatches,
  type Confirm,
  countLabel,
  isRemovableFolder,
  moveChoice,
  movesInto,
  toggledLocation,
} from "./library.ts";
import { ConfirmDeleteDialog, type NewFolder, NewFolderDialog } from "./LibraryDialogs.tsx";
import { FolderBar, LibraryList } from "./LibraryList.tsx";
import { SelectionBar } from "./SelectionBar.tsx";
import { usePagedFiles } from "./use_paged_files.ts";

/**
 * Every stored document, folder by folder, listed a page at a time: search, select several, add them to the
 * workspace, move them to another folder or delete them; create and delete folders.
 */
export function LibraryPane(
  { slug, inWorkspace, version, openFolder, onWorkspace, refreshWorkspace }: {
    slug: string;
    inWorkspace: Set<string>;
    /** Raised by the owner when the library changed (an upload finished). */
    version: number;
    /** A folder to open (a data connector's import ended); a new object each time it should open. */
    openFolder?: { name: string } | null;
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
  const [newFolder, setNewFolder] = useState<NewFolder>(null);
  const [moveTarget, setMoveTarget] = useState("");

  useEffect(() => {
    const abort = new AbortController();
    fetchFolders(abort.signal).then(setFolders).catch((caught: Error) => {
      if (!abort.signal.aborted) toast.error(caught.message);
    });
    return () => abort.abort();
  }, [version, changes]);

  useEffect(() => setSelected(new Set()), [folder]);

  useEffect(() => {
    if (openFolder) setFolder(openFolder.name);
  }, [openFolder]);

  const toggle = useCallback((location: string) => {
    setSelected((current) => toggledLocation(current, location));
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
      const batches = addBatches(selected, inWorkspace);
      const failures: string[] = [];
      for (const adds of batches) {
        const answer = await updateEmbeddings(slug, { adds });
        if (answer.workspace) onWorkspace(answer.workspace);
        if (answer.message) failures.push(answer.message);
      }
      setSelected(new Set());
      if (failures.length > 0) toast.error(failures.join("\n\n"));
      else toast.success(t("documents.library.added", { count: batches.flat().length }));
    }, false);

  const moveSelected = () =>
    act("move", async () => {
      if (!moveTarget) return;
      const files = movesInto(selected, moveTarget);
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

  const move = moveChoice(folders, folder, moveTarget);
  const removable = isRemovableFolder(folder);
  const label = countLabel(files.total, query);

  return (
    <section className="doc-pane doc-library" aria-labelledby="library-heading">
      <div className="doc-pane-head">
        <h3 id="library-heading" className="doc-pane-title">{t("documents.library.heading")}</h3>
        <span className="muted small" aria-live="polite">{t(label.key, { count: label.count })}</span>
      </div>
      <FolderBar
        folders={folders}
        folder={folder}
        busy={busy}
        onFolder={setFolder}
        onNewFolder={() => setNewFolder({ name: "", error: null })}
        onDeleteFolder={removable ? () => setConfirm({ kind: "folder", name: folder }) : null}
      />
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
      <LibraryList
        files={files}
        query={query}
        selected={selected}
        inWorkspace={inWorkspace}
        onToggle={toggle}
      />
      {selected.size > 0
        ? (
          <SelectionBar
            count={selected.size}
            busy={busy}
            targets={move.targets}
            chosenTarget={move.chosen}
            onMoveTarget={setMoveTarget}
            onAdd={addSelected}
            onMove={moveSelected}
            onDelete={() => setConfirm({ kind: "documents", count: selected.size })}
            onClear={() => setSelected(new Set())}
          />
        )
        : <p className="muted small doc-hint">{t("documents.library.hint")}</p>}

      <ConfirmDeleteDialog
        confirm={confirm}
        onClose={() => setConfirm(null)}
        onConfirm={() => confirm?.kind === "folder" ? deleteFolder(confirm.name) : deleteSelected()}
      />
      <NewFolderDialog
        value={newFolder}
        creating={busy === "folder"}
        onChange={setNewFolder}
        onSubmit={submitFolder}
      />
    </section>
  );
}
