import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { History } from "../../shared/api/chat.ts";
import { WorkspaceAnswer, type WorkspaceDetail } from "../../shared/api/workspaces.ts";
import { paths } from "../../shared/routes.ts";
import { api } from "../lib/api.ts";
import { streamChat } from "../lib/chat_stream.ts";
import { applyEvent, type ChatMessage, fromHistory } from "../features/chat/messages.ts";
import { Message } from "../features/chat/Message.tsx";
import { Composer } from "../features/chat/Composer.tsx";
import { DocumentsPanel } from "../features/documents/DocumentsPanel.tsx";

type Props = { slug: string; threadSlug: string | null };

/** The workspace chat: history, streamed answers with citations, and the workspace's documents. */
export default function WorkspaceChat({ slug, threadSlug }: Props) {
  const { t } = useTranslation();
  const [workspace, setWorkspace] = useState<WorkspaceDetail | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [showDocuments, setShowDocuments] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const base = threadSlug
    ? `/workspace/${encodeURIComponent(slug)}/thread/${encodeURIComponent(threadSlug)}`
    : `/workspace/${encodeURIComponent(slug)}`;

  useEffect(() => {
    api(`/workspace/${encodeURIComponent(slug)}`, { schema: WorkspaceAnswer })
      .then((answer) => {
        if (!answer.workspace) throw new Error(t("workspace.notFound"));
        setWorkspace(answer.workspace);
        return api(`${base}/chats`, { schema: History });
      })
      .then((answer) => setMessages(fromHistory(answer.history)))
      .catch((caught: Error) => setLoadError(caught.message));
  }, [slug, base]);

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [messages]);

  const send = useCallback(async (text: string) => {
    const abort = new AbortController();
    controller.current = abort;
    setBusy(true);
    setMessages((current) => [
      ...(current ?? []),
      {
        uuid: crypto.randomUUID(),
        content: text,
        role: "user",
        sources: [],
        closed: true,
        error: null,
        animate: false,
        pending: false,
      },
      {
        uuid: crypto.randomUUID(),
        content: "",
        role: "assistant",
        sources: [],
        closed: false,
        error: null,
        animate: true,
        pending: true,
      },
    ]);
    await streamChat(`${base}/stream-chat`, { message: text }, (event) => {
      setMessages((current) => {
        const result = applyEvent(current ?? [], event);
        if (result.done) setBusy(false);
        return result.messages;
      });
    }, abort.signal);
    controller.current = null;
    setBusy(false);
  }, [base]);

  const stop = useCallback(() => {
    controller.current?.abort();
    setMessages((current) => applyEvent(current ?? [], { type: "stopGeneration" }).messages);
    setBusy(false);
  }, []);

  if (loadError) {
    return (
      <div className="page-message" role="alert">
        <h1>{t("workspace.loadFailed")}</h1>
        <p>{loadError}</p>
        <a className="button secondary" href={paths.home()}>{t("common.backHome")}</a>
      </div>
    );
  }

  return (
    <div className={`chat-layout${showDocuments ? " with-documents" : ""}`}>
      <section className="chat" aria-labelledby="workspace-title">
        <header className="chat-header">
          <h1 id="workspace-title" className="chat-title">{workspace?.name ?? t("workspace.loading")}</h1>
          <button
            type="button"
            className="button secondary"
            aria-expanded={showDocuments}
            onClick={() => setShowDocuments(!showDocuments)}
            disabled={!workspace}
          >
            {t("documents.toggle", { count: workspace?.documents.length ?? 0 })}
          </button>
        </header>
        <div className="messages" aria-live="polite">
          {messages === null && !loadError && <p className="muted center">{t("chat.loading")}</p>}
          {messages !== null && messages.length === 0 && (
            <div className="empty-chat">
              <p>{t("chat.empty")}</p>
              {workspace && workspace.documents.length === 0 && (
                <p className="muted">{t("chat.emptyHint")}</p>
              )}
            </div>
          )}
          {messages?.map((message) => <Message key={message.uuid} message={message} />)}
          <div ref={bottom} />
        </div>
        <Composer busy={busy} onSend={send} onStop={stop} />
      </section>
      {showDocuments && workspace && <DocumentsPanel workspace={workspace} onChange={setWorkspace} />}
    </div>
  );
}
