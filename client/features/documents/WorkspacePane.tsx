import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { connectorSource, watchableSource } from "../../../shared/api/library.ts";
import type { WorkspaceDetail, WorkspaceDocument } from "../../../shared/api/workspaces.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { localStore } from "../../lib/storage.ts";
import { toast } from "../../lib/toast.ts";
import { setPinned, setWatched, updateEmbeddings } from "./api.ts";
import { formatCount, workspaceDocumentInfo } from "./format.ts";
import { VirtualList } from "./VirtualList.tsx";

const ROW_HEIGHT = 56;

/** The one-time explanations of pinning and watching (stored document alerts). */
const SEEN_KEYS = {
  pin: "lectern_pinned_document_alert",
  watch: "lectern_watched_document_alert",
} as const;
type Explained = keyof typeof SEEN_KEYS;

function seen(kind: Explained): boolean {
  try {
    return localStore()?.getItem(SEEN_KEYS[kind]) === "seen";
  } catch {
    return true;
  }
}

function markSeen(kind: Explained) {
  try {
    localStore()?.setItem(SEEN_KEYS[kind], "seen");
  } catch {
    // Without storage the explanation shows again next time, which is harmless.
  }
}

type RowActions = {
  busy: boolean;
  onPin: (document: WorkspaceDocument) => void;
  onWatch: (document: WorkspaceDocument) => void;
  onRemove: (document: WorkspaceDocument) => void;
};

/** One document of the workspace; without actions (read only) its pin and watch show as plain marks. */
function WorkspaceRow({ document, actions }: { document: WorkspaceDocument; actions: RowActions | null }) {
  const { t } = useTranslation();
  const info = workspaceDocumentInfo(document.metadata, document.filename);
  const canWatch = watchableSource(info.chunkSource);
  // A data connector's document is fetched again from its source (a repository file, a video, a page).
  const fromSource = connectorSource(info.chunkSource);
  const main = (
    <span className="doc-row-main">
      <span className="doc-title">{info.title}</span>
      <span className="doc-meta">
        {info.words !== null && info.tokens !== null
          ? t("documents.size", { words: formatCount(info.words), tokens: formatCount(info.tokens) })
          : document.docpath}
      </span>
    </span>
  );
  if (!actions) {
    return (
      <div className={`doc-row workspace-doc${document.pinned ? " pinned" : ""}`} title={info.title}>
        {main}
        {document.pinned && <span className="doc-badge">{t("documents.workspace.pinned")}</span>}
        {document.watched && <span className="doc-badge">{t("documents.workspace.watching")}</span>}
      </div>
    );
  }
  const { busy, onPin, onWatch, onRemove } = actions;
  return (
    <div className={`doc-row workspace-doc${document.pinned ? " pinned" : ""}`} title={document.docpath}>
      {main}
      <span className="doc-row-actions">
        <button
          type="button"
          className={`doc-toggle${document.pinned ? " on" : ""}`}
          aria-pressed={document.pinned}
          aria-label={t("documents.workspace.pinLabel", { title: info.title })}
          title={t(document.pinned ? "documents.workspace.unpinHint" : "documents.workspace.pinHint")}
          disabled={busy}
          onClick={() => onPin(document)}
        >
          {t(document.pinned ? "documents.workspace.pinned" : "documents.workspace.pin")}
        </button>
        {canWatch && (
          <button
            type="button"
            className={`doc-toggle${document.watched ? " on" : ""}`}
            aria-pressed={document.watched}
            aria-label={t("documents.workspace.watchLabel", { title: info.title })}
            title={t(
              fromSource
                ? document.watched
                  ? "documents.workspace.unwatchSourceHint"
                  : "documents.workspace.watchSourceHint"
                : document.watched
                ? "documents.workspace.unwatchHint"
                : "documents.workspace.watchHint",
            )}
            disabled={busy}
            onClick={() => onWatch(document)}
          >
            {t(document.watched ? "documents.workspace.watching" : "documents.workspace.watch")}
          </button>
        )}
        <button
          type="button"
          className="icon-button doc-remove"
          aria-label={t("documents.workspace.removeLabel", { title: info.title })}
          title={t("documents.workspace.remove")}
          disabled={busy}
          onClick={() => onRemove(document)}
        >
          ×
        </button>
      </span>
    </div>
  );
}

/** The documents of this workspace, newest first, with pin, watch and remove unless read only. */
export function WorkspacePane(
  props:
    | { workspace: WorkspaceDetail; onWorkspace: (workspace: WorkspaceDetail) => void; readOnly?: false }
    | { workspace: WorkspaceDetail; readOnly: true },
) {
  const { workspace } = props;
  const onWorkspace = (next: WorkspaceDetail) => {
    if (!props.readOnly) props.onWorkspace(next);
  };
  const { t } = useTranslation();
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [explain, setExplain] = useState<Explained | null>(null);
  const documents = workspace.documents;
  // Two toggles may finish one after the other: each patches the newest workspace, not the one it started from.
  const latest = useRef(workspace);
  latest.current = workspace;

  const patch = (docpath: string, change: Partial<WorkspaceDocument>) => {
    const current = latest.current;
    const next = {
      ...current,
      documents: current.documents.map((document) =>
        document.docpath === docpath ? { ...document, ...change } : document
      ),
    };
    latest.current = next;
    onWorkspace(next);
  };

  /** Runs one document's action; a failure is toasted, after `failure`'s sentence when the action has one. */
  async function run(
    docpath: string,
    work: () => Promise<void>,
    failure?: "documents.workspace.watchFailed",
  ) {
    setBusy((current) => new Set(current).add(docpath));
    try {
      await work();
    } catch (caught) {
      const message = (caught as Error).message;
      toast.error(failure ? t(failure, { error: message }) : message);
    } finally {
      setBusy((current) => {
        const next = new Set(current);
        next.delete(docpath);
        return next;
      });
    }
  }

  const pin = (document: WorkspaceDocument) =>
    run(document.docpath, async () => {
      await setPinned(workspace.slug, document.docpath, !document.pinned);
      patch(document.docpath, { pinned: !document.pinned });
      if (!document.pinned && !seen("pin")) setExplain("pin");
    });

  const watch = (document: WorkspaceDocument) =>
    run(document.docpath, async () => {
      await setWatched(workspace.slug, document.docpath, !document.watched);
      patch(document.docpath, { watched: !document.watched });
      if (!document.watched && !seen("watch")) setExplain("watch");
    }, "documents.workspace.watchFailed");

  const remove = (document: WorkspaceDocument) =>
    run(document.docpath, async () => {
      const answer = await updateEmbeddings(workspace.slug, { deletes: [document.docpath] });
      if (answer.workspace) onWorkspace(answer.workspace);
      if (answer.message) throw new Error(answer.message);
    });

  const closeExplanation = () => {
    if (explain) markSeen(explain);
    setExplain(null);
  };

  return (
    <section className="doc-pane doc-workspace" aria-labelledby="workspace-documents-heading">
      <div className="doc-pane-head">
        <h3 id="workspace-documents-heading" className="doc-pane-title">
          {t("documents.workspace.heading")}
        </h3>
        <span className="muted small">{t("documents.workspace.count", { count: documents.length })}</span>
      </div>
      {documents.length === 0
        ? (
          <p className="muted doc-empty">
            {t(props.readOnly ? "documents.workspace.emptyReadOnly" : "documents.workspace.empty")}
          </p>
        )
        : (
          <VirtualList
            count={documents.length}
            rowHeight={ROW_HEIGHT}
            className="document-list"
            label={t("documents.workspace.listLabel")}
            rowKey={(index) => documents[documents.length - 1 - index].id}
            renderRow={(index) => {
              const document = documents[documents.length - 1 - index];
              return (
                <WorkspaceRow
                  document={document}
                  actions={props.readOnly
                    ? null
                    : { busy: busy.has(document.docpath), onPin: pin, onWatch: watch, onRemove: remove }}
                />
              );
            }}
          />
        )}
      <Dialog
        open={explain !== null}
        title={t(explain === "watch" ? "documents.explain.watchTitle" : "documents.explain.pinTitle")}
        onClose={closeExplanation}
      >
        <p>{t(explain === "watch" ? "documents.explain.watchAnyBody" : "documents.explain.pinBody")}</p>
        <div className="form-actions">
          <button type="button" className="button primary" onClick={closeExplanation}>
            {t("documents.explain.ok")}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
