import { useTranslation } from "react-i18next";
import type { FolderShell } from "../../../shared/api/library.ts";
import { ALL_FOLDERS } from "./api.ts";
import { LibraryRow } from "./LibraryRow.tsx";
import type { usePagedFiles } from "./use_paged_files.ts";
import { VirtualList } from "./VirtualList.tsx";

const ROW_HEIGHT = 56;

/**
 * The library's folder picker (every folder, or one with its count), New Folder, and Delete Folder when the
 * folder shown can be deleted (`onDeleteFolder` null otherwise).
 */
export function FolderBar(
  { folders, folder, busy, onFolder, onNewFolder, onDeleteFolder }: {
    folders: readonly FolderShell[];
    folder: string;
    busy: string | null;
    onFolder: (folder: string) => void;
    onNewFolder: () => void;
    onDeleteFolder: (() => void) | null;
  },
) {
  const { t } = useTranslation();
  return (
    <div className="doc-toolbar">
      <select
        className="select doc-folder-select"
        aria-label={t("documents.folders.label")}
        value={folder}
        onChange={(event) => onFolder(event.target.value)}
      >
        <option value={ALL_FOLDERS}>{t("documents.folders.all")}</option>
        {folders.map((shell) => (
          <option key={shell.name} value={shell.name}>
            {t("documents.folders.option", { name: shell.name, count: shell.fileCount })}
          </option>
        ))}
      </select>
      <button type="button" className="button secondary small-button" onClick={onNewFolder}>
        {t("documents.folders.new")}
      </button>
      {onDeleteFolder && (
        <button
          type="button"
          className="button secondary small-button danger-text"
          disabled={busy !== null}
          onClick={onDeleteFolder}
        >
          {t("documents.folders.delete")}
        </button>
      )}
    </div>
  );
}

/** The documents of the folder shown, a page loaded as it scrolls into view; or why there are none. */
export function LibraryList(
  { files, query, selected, inWorkspace, onToggle }: {
    files: ReturnType<typeof usePagedFiles>;
    query: string;
    selected: ReadonlySet<string>;
    inWorkspace: ReadonlySet<string>;
    onToggle: (location: string) => void;
  },
) {
  const { t } = useTranslation();
  if (files.total === 0) {
    return (
      <p className="muted doc-empty">
        {query ? t("documents.library.noMatch", { query }) : t("documents.library.empty")}
      </p>
    );
  }
  return (
    <VirtualList
      count={files.total ?? 0}
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
            onToggle={onToggle}
          />
        );
      }}
    />
  );
}
