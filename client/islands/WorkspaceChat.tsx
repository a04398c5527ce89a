import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WorkspaceDetail } from "../../shared/api/workspaces.ts";
import { paths } from "../../shared/routes.ts";
import { api } from "../lib/api.ts";
import { Dialog } from "../components/Dialog.tsx";
import { useChat } from "../features/chat/use_chat.ts";
import { MessageList } from "../features/chat/MessageList.tsx";
import { Composer } from "../features/chat/Composer.tsx";
import { SuggestedMessages } from "../features/chat/SuggestedMessages.tsx";
import { usePermission } from "../features/auth/use_permission.ts";
import { documentsModeOf, useWorkspaceRole } from "../features/workspace_roles/use_workspace_role.ts";
import { SpeechScope } from "../features/speech/speech.ts";
import { ExportChatMenu } from "../features/chat/ExportChatMenu.tsx";
import { preloadMarkdown } from "../lib/markdown_loader.ts";
import { lazySchema } from "../lib/lazy_schema.ts";
import { readAfterChanges, useLatest } from "../lib/latest.ts";

// The documents panel opens on request; its code is not in the page's first load.
const DocumentsPanel = lazy(() =>
  import("../features/documents/DocumentsPanel.tsx").then((module) => ({ default: module.DocumentsPanel }))
);

type Props = { slug: string; threadSlug: string | null };

/** The workspace chat: history, streamed answers with citations, message actions, and the documents. */
export default function WorkspaceChat({ slug, threadSlug }: Props) {
  const { t } = useTranslation();
  const [workspace, setWorkspace] = useState<WorkspaceDetail | null>(null);
  const [workspaceError, setWorkspaceError] = useState<string | null>(null);
  const [showDocuments, setShowDocuments] = useState(false);
  const chat = useChat(slug, threadSlug);
  const speechScope = useMemo(() => ({ slug }), [slug]);
  // Known before the documents open: a default user's panel must not ask for what the server refuses her. The
  // library is for admins and managers; a workspace's editors add to it and manage its documents.
  const canManageLibrary = usePermission("documents:manage");
  const role = useWorkspaceRole(slug);
  const documentsMode = documentsModeOf(canManageLibrary, role);
  const canManageDocuments = documentsMode === null ? null : documentsMode !== "reader";

  // The markdown renderer is not in the page's first load: it comes while the history is asked for.
  useEffect(() => {
    preloadMarkdown().catch(() => {});
  }, []);

  // The workspace is read (on opening, after a document was added or the library changed) and also set from
  // the answers of the documents panel's actions (an upload, a removal, a pin): a read that an action's answer
  // overtook is made again rather than shown over it, and only the newest read shows.
  const reads = useLatest();
  const changes = useRef(0);
  const loadWorkspace = useCallback(async (signal?: AbortSignal) => {
    const answer = await readAfterChanges(
      reads,
      () => changes.current,
      () =>
        api(`/workspace/${encodeURIComponent(slug)}`, {
          schema: lazySchema((s) => s.workspaces.WorkspaceAnswer),
          signal,
        }),
    );
    if (answer === null) return;
    if (!answer.workspace) throw new Error(t("workspace.notFound"));
    setWorkspace(answer.workspace);
  }, [slug]);
  const changeWorkspace = useCallback((next: WorkspaceDetail) => {
    changes.current++;
    setWorkspace(next);
  }, []);
  const refreshWorkspace = useCallback(() => loadWorkspace(), [loadWorkspace]);

  useEffect(() => {
    const abort = new AbortController();
    loadWorkspace(abort.signal).catch((caught: Error) => {
      if (!abort.signal.aborted) setWorkspaceError(caught.message);
    });
    return () => abort.abort();
  }, [loadWorkspace]);

  // A file of the thread became a workspace document: the documents' count and panel show it. Should this
  // refresh fail, the page keeps what it shows.
  const documentAdded = useCallback(() => {
    loadWorkspace().catch(() => {});
  }, [loadWorkspace]);

  const loadError = workspaceError ?? chat.loadError;
  if (loadError) {
    return (
      <div className="page-message" role="alert">
        <h1>{t("workspace.loadFailed")}</h1>
        <p>{loadError}</p>
        <a className="button secondary" href={paths.home()}>{t("common.backHome")}</a>
      </div>
    );
  }

  const empty = chat.messages !== null && chat.messages.length === 0;
  return (
    <div className={`chat-layout${showDocuments ? " with-documents" : ""}`}>
      <section className="chat" aria-labelledby="workspace-title">
        <header className="chat-header">
          <h1 id="workspace-title" className="chat-title">{workspace?.name ?? t("workspace.loading")}</h1>
          <div className="chat-header-actions">
            {chat.messages !== null && chat.messages.length > 0 && (
              <ExportChatMenu slug={slug} threadSlug={threadSlug} disabled={chat.busy} />
            )}
            <button
              type="button"
              className="button secondary"
              aria-expanded={showDocuments}
              onClick={() => setShowDocuments(!showDocuments)}
              disabled={!workspace || canManageDocuments === null}
            >
              {t("documents.toggle", { count: workspace?.documents.length ?? 0 })}
            </button>
          </div>
        </header>
        <SpeechScope.Provider value={speechScope}>
          <MessageList messages={chat.messages} busy={chat.busy} actions={chat.actions}>
            {empty && (
              <div className="empty-chat">
                <p>{t("chat.empty")}</p>
                {workspace && workspace.documents.length === 0 && canManageDocuments !== null && (
                  <p className="muted">
                    {t(canManageDocuments ? "chat.emptyHint" : "workspaceRoles.emptyHintReadOnly")}
                  </p>
                )}
                <SuggestedMessages slug={slug} onPick={(message) => chat.send(message)} />
              </div>
            )}
          </MessageList>
        </SpeechScope.Provider>
        <Composer
          slug={slug}
          threadSlug={threadSlug}
          canAddToWorkspace={canManageDocuments === true}
          busy={chat.busy}
          agentActive={chat.agentActive}
          onSend={chat.send}
          onStop={chat.stop}
          onDocumentAdded={documentAdded}
        />
      </section>
      {showDocuments && workspace && canManageDocuments !== null && (
        <Suspense fallback={null}>
          <DocumentsPanel
            workspace={workspace}
            mode={documentsMode ?? "reader"}
            onChange={changeWorkspace}
            onRefresh={refreshWorkspace}
            onOpenChange={setShowDocuments}
          />
        </Suspense>
      )}
      <Dialog open={chat.pendingDelete !== null} title={t("chat.delete.title")} onClose={chat.cancelDelete}>
        <p>{t("chat.delete.body")}</p>
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={chat.cancelDelete}>
            {t("common.cancel")}
          </button>
          <button type="button" className="button danger" onClick={chat.confirmDelete}>
            {t("chat.delete.confirm")}
          </button>
        </div>
      </Dialog>
    </div>
  );
}
