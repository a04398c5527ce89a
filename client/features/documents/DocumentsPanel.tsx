import { type DragEvent, memo, useCallback, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import { LibraryPane } from "./LibraryPane.tsx";
import { UploadArea } from "./UploadArea.tsx";
import { useUploads } from "./use_uploads.ts";
import { WorkspacePane } from "./WorkspacePane.tsx";
import { DataConnectors } from "./connectors/DataConnectors.tsx";

type PanelProps = {
  workspace: WorkspaceDetail;
  /** An action's answer (an upload, a removal, a pin) holds the workspace as it now is. */
  onChange: (workspace: WorkspaceDetail) => void;
  /** Reads the workspace again (after the library changed); an older read never shows over a newer answer. */
  onRefresh: () => Promise<void>;
  /** Called with false by the close button; a state setter keeps the memo effective. */
  onOpenChange?: (open: boolean) => void;
};

/**
 * What the documents panel offers: the whole manager (admin, manager, or anyone without accounts), a
 * workspace editor's uploads and this workspace's documents, or the list to read (a viewer).
 */
export type DocumentsMode = "manager" | "editor" | "reader";

/**
 * The documents beside the chat. Someone who may manage documents gets the whole manager; a workspace's editor
 * uploads and adds links into it and manages its documents (the library of every document stays with admins
 * and managers); anyone else reads the list of this workspace's documents, what its answers draw on, and is
 * offered nothing the server would refuse. Memoized: an answer streaming beside it does not render it again.
 */
export const DocumentsPanel = memo(function DocumentsPanel(
  { mode, ...props }: PanelProps & { mode: DocumentsMode },
) {
  if (mode === "manager") return <DocumentManager {...props} />;
  if (mode === "editor") return <EditorDocuments {...props} />;
  return <WorkspaceDocuments {...props} />;
});

function CloseButton({ onOpenChange }: Pick<PanelProps, "onOpenChange">) {
  const { t } = useTranslation();
  if (!onOpenChange) return null;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t("documents.close")}
      onClick={() => onOpenChange(false)}
    >
      ×
    </button>
  );
}

/** This workspace's documents, read only: no upload, link, library, pin, watch or removal. */
function WorkspaceDocuments({ workspace, onOpenChange }: PanelProps) {
  const { t } = useTranslation();
  return (
    <section className="documents doc-manager read-only" aria-labelledby="documents-heading">
      <header className="doc-header">
        <h2 id="documents-heading" className="doc-heading">{t("documents.heading")}</h2>
        <CloseButton onOpenChange={onOpenChange} />
      </header>
      <div className="doc-body">
        <p className="muted small doc-read-only-note">{t("workspaceRoles.readOnlyDocuments")}</p>
        <WorkspacePane workspace={workspace} readOnly />
      </div>
    </section>
  );
}

/** A workspace editor's panel: uploads and links into this workspace, and its documents (pin, watch, remove). */
function EditorDocuments({ workspace, onChange, onOpenChange }: PanelProps) {
  const { t } = useTranslation();
  const onStored = useCallback(() => {}, []);
  const uploads = useUploads(workspace.slug, { onWorkspace: onChange, onStored });
  return (
    <section className="documents doc-manager editor" aria-labelledby="documents-heading">
      <header className="doc-header">
        <h2 id="documents-heading" className="doc-heading">{t("documents.heading")}</h2>
        <CloseButton onOpenChange={onOpenChange} />
      </header>
      <div className="doc-body">
        <p className="muted small">{t("workspaceRoles.editorDocuments")}</p>
        <UploadArea
          uploads={uploads.uploads}
          onFiles={uploads.addFiles}
          onLink={uploads.addLink}
          onClear={uploads.clearFinished}
          dragging={false}
        />
        <WorkspacePane workspace={workspace} onWorkspace={onChange} />
      </div>
    </section>
  );
}

/**
 * The document manager: uploads and links, the library of every stored document, and this workspace's
 * documents. Side by side when there is room, one above the other otherwise; "Expand" gives it the whole
 * width.
 */
function DocumentManager({ workspace, onChange, onRefresh, onOpenChange }: PanelProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [libraryVersion, setLibraryVersion] = useState(0);
  const [tab, setTab] = useState<"documents" | "connectors">("documents");
  const [openFolder, setOpenFolder] = useState<{ name: string } | null>(null);
  const dragDepth = useRef(0);
  const slug = workspace.slug;

  const onStored = useCallback(() => setLibraryVersion((version) => version + 1), []);
  const onImported = useCallback((folder: string) => {
    setLibraryVersion((version) => version + 1);
    setOpenFolder({ name: folder });
    setTab("documents");
  }, []);
  const uploads = useUploads(slug, { onWorkspace: onChange, onStored });

  const inWorkspace = useMemo(
    () => new Set(workspace.documents.map((document) => document.docpath)),
    [workspace.documents],
  );

  const dragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
  };
  const dragEnter = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    dragDepth.current++;
    setDragging(true);
  };
  const dragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const drop = (event: DragEvent) => {
    if (!event.dataTransfer.files.length) return;
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    uploads.addFiles(event.dataTransfer.files);
  };

  return (
    <section
      className={`documents doc-manager${expanded ? " expanded" : ""}${dragging ? " dragging" : ""}`}
      aria-labelledby="documents-heading"
      onDragOver={dragOver}
      onDragEnter={dragEnter}
      onDragLeave={dragLeave}
      onDrop={drop}
    >
      <header className="doc-header">
        <h2 id="documents-heading" className="doc-heading">{t("documents.heading")}</h2>
        <button
          type="button"
          className="button secondary small-button doc-expand"
          onClick={() => setExpanded(!expanded)}
        >
          {t(expanded ? "documents.collapse" : "documents.expand")}
        </button>
        <CloseButton onOpenChange={onOpenChange} />
      </header>
      <div className="doc-body">
        <div className="doc-tabs" role="tablist" aria-label={t("documents.tabs.label")}>
          {(["documents", "connectors"] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`doc-tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`doc-tabpanel-${name}`}
              className={`doc-tab${tab === name ? " selected" : ""}`}
              onClick={() => setTab(name)}
            >
              {t(`documents.tabs.${name}`)}
            </button>
          ))}
        </div>
        {/* Both stay mounted: an import's progress and a half-filled form survive a switch of tab. */}
        <div
          id="doc-tabpanel-connectors"
          role="tabpanel"
          aria-labelledby="doc-tab-connectors"
          hidden={tab !== "connectors"}
        >
          <DataConnectors onFolder={onImported} />
        </div>
        <div
          id="doc-tabpanel-documents"
          role="tabpanel"
          aria-labelledby="doc-tab-documents"
          className="doc-tabpanel"
          hidden={tab !== "documents"}
        >
          <UploadArea
            uploads={uploads.uploads}
            onFiles={uploads.addFiles}
            onLink={uploads.addLink}
            onClear={uploads.clearFinished}
            dragging={dragging}
          />
          <div className="doc-panes">
            <LibraryPane
              slug={slug}
              inWorkspace={inWorkspace}
              version={libraryVersion}
              openFolder={openFolder}
              onWorkspace={onChange}
              refreshWorkspace={onRefresh}
            />
            <WorkspacePane workspace={workspace} onWorkspace={onChange} />
          </div>
        </div>
      </div>
    </section>
  );
}
