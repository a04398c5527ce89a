import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../../lib/api.ts";
import { streamChat } from "../../lib/chat_stream.ts";
import { announceThreadRenamed } from "../threads/events.ts";
import { toRequestAttachments } from "./attachments.ts";
import {
  adoptSavedChat,
  applyEvent,
  type ChatAttachment,
  type ChatEvent,
  type ChatMessage,
  endsLoading,
  fromHistory,
  outgoing,
} from "./messages.ts";
import { useMessageActions } from "./use_message_actions.ts";
import { readSession } from "../../lib/auth.ts";
import { t } from "../../lib/i18n.ts";
import { agentProtocols, agentSocketUrl, agentTurnEnded, applyAgentEvent } from "./agent.ts";
import { lazySchema } from "../../lib/lazy_schema.ts";

/** A window event that stops the answer being streamed (the reference's `abort-chat-stream`). */
export const ABORT_STREAM_EVENT = "abort-chat-stream";

/** Waits, then resolves; for the short retries after a stop. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The conversation of a workspace's default thread (`threadSlug` null) or of a named thread: history, sending
 * and streaming, stop; the per-message actions come from `useMessageActions`.
 */
export function useChat(slug: string, threadSlug: string | null) {
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const messagesRef = useRef<ChatMessage[] | null>(null);
  const busyRef = useRef(false);
  const controller = useRef<AbortController | null>(null);
  /** Bumped by every send: frames of an earlier answer no longer apply. */
  const generation = useRef(0);
  /** The agent session's socket while one is open (`@agent`): messages go to it instead of stream-chat. */
  const agent = useRef<WebSocket | null>(null);
  const [agentActive, setAgentActive] = useState(false);
  const workspacePath = `/workspace/${encodeURIComponent(slug)}`;
  const base = threadSlug ? `${workspacePath}/thread/${encodeURIComponent(threadSlug)}` : workspacePath;

  useEffect(() => {
    messagesRef.current = messages;
  }, [messages]);

  const update = useCallback((change: (current: ChatMessage[]) => ChatMessage[]) => {
    setMessages((current) => {
      const next = change(current ?? []);
      messagesRef.current = next;
      return next;
    });
  }, []);

  const setBusyState = useCallback((value: boolean) => {
    busyRef.current = value;
    setBusy(value);
  }, []);

  /**
   * Settles once the history is in the list (true) or could not be read (false). A message sent before then waits
   * for it: the history would otherwise replace the list, the prompt with it, while its answer streams.
   */
  const historyLoaded = useRef<Promise<boolean>>(Promise.resolve(false));

  useEffect(() => {
    const abort = new AbortController();
    historyLoaded.current = api(`${base}/chats`, {
      schema: lazySchema((s) => s.chat.History),
      signal: abort.signal,
    })
      .then((answer) => {
        if (abort.signal.aborted) return false;
        const loaded = fromHistory(answer.history);
        messagesRef.current = loaded;
        setMessages(loaded);
        return true;
      })
      .catch((caught: Error) => {
        if (!abort.signal.aborted) setLoadError(caught.message);
        return false;
      });
    return () => abort.abort();
  }, [base]);

  /**
   * After a stop the server keeps the partial answer with its citations; once saved, it gives the pair its
   * chatId and citations. Asked at once, then again a little later while the server is still saving it.
   */
  const adoptAfterStop = useCallback(async (run: number) => {
    for (const delay of [0, 100, 250, 500, 1000, 2000]) {
      await pause(delay);
      if (run !== generation.current || busyRef.current) return;
      try {
        const { history } = await api(`${base}/chats`, { schema: lazySchema((s) => s.chat.History) });
        if (run !== generation.current || busyRef.current) return;
        const adopted = adoptSavedChat(messagesRef.current ?? [], history);
        if (adopted) {
          update(() => adopted);
          return;
        }
      } catch {
        return;
      }
    }
  }, [base, update]);

  /** Opens the agent's socket for an invocation; its messages go into the list until it closes. */
  const startAgent = useCallback((uuid: string) => {
    const socket = new WebSocket(
      agentSocketUrl(globalThis.location, uuid),
      agentProtocols(readSession().token),
    );
    agent.current = socket;
    setAgentActive(true);
    setBusyState(true);
    socket.onmessage = (message) => {
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(String(message.data));
      } catch {
        return;
      }
      update((current) => applyAgentEvent(current, event));
      if (agentTurnEnded(event)) setBusyState(false);
    };
    socket.onclose = (event) => {
      if (agent.current !== socket) return;
      agent.current = null;
      setAgentActive(false);
      setBusyState(false);
      // The server says why it closed in a status line of its own; a dropped connection gets one here.
      if (event.code !== 1000 && event.code !== 4401 && event.code !== 1011) {
        update((current) =>
          applyAgentEvent(current, { type: "statusResponse", content: t("chat.agent.lost") })
        );
      }
      update((current) => current.filter((item) => !item.pending));
    };
  }, [update, setBusyState]);

  useEffect(() => () => agent.current?.close(), []);

  const send = useCallback(async (text: string, attachments: ChatAttachment[] = []) => {
    if (!text.trim()) return;
    const socket = agent.current;
    if (socket && socket.readyState === WebSocket.OPEN) {
      // In an agent session the message (or /exit) goes over its socket.
      if (busyRef.current && !/^\/?(exit|stop|halt)$/.test(text.trim())) return;
      update((current) => [...current, ...outgoing(text).slice(0, 1)]);
      socket.send(JSON.stringify({ type: "awaitingFeedback", feedback: text }));
      setBusyState(true);
      return;
    }
    if (busyRef.current) return;
    const run = ++generation.current;
    const abort = new AbortController();
    controller.current = abort;
    setBusyState(true);
    if (messagesRef.current === null && !(await historyLoaded.current)) {
      // The history could not be read: the page says so, and nothing is sent.
      if (controller.current === abort) controller.current = null;
      setBusyState(false);
      return;
    }
    if (run !== generation.current || abort.signal.aborted) return;
    update((current) => [...current, ...outgoing(text, attachments)]);
    const body = attachments.length > 0
      ? { message: text, attachments: toRequestAttachments(attachments) }
      : { message: text };
    await streamChat(`${base}/stream-chat`, body, (event) => {
      if (event.type === undefined) {
        // The thread took the name of its first message: the sidebar renames it.
        announceThreadRenamed(event.thread);
        return;
      }
      if (run !== generation.current || abort.signal.aborted) return;
      if (event.type === "agentInitWebsocketConnection") startAgent(event.websocketUUID);
      update((current) => applyEvent(current, event));
      if (endsLoading(event) && !agent.current) setBusyState(false);
    }, abort.signal);
    if (run !== generation.current) return;
    if (controller.current === abort) controller.current = null;
    if (abort.signal.aborted) adoptAfterStop(run);
    else if (!agent.current) setBusyState(false);
  }, [base, update, setBusyState, adoptAfterStop, startAgent]);

  const stop = useCallback(() => {
    if (agent.current) {
      // Stop in an agent session ends it, as /exit does.
      agent.current.send(JSON.stringify({ type: "awaitingFeedback", feedback: "/exit" }));
      return;
    }
    if (!controller.current) return;
    controller.current.abort();
    controller.current = null;
    update((current) => applyEvent(current, { type: "stopGeneration" } satisfies ChatEvent));
    setBusyState(false);
  }, [update, setBusyState]);

  useEffect(() => {
    globalThis.addEventListener(ABORT_STREAM_EVENT, stop);
    return () => globalThis.removeEventListener(ABORT_STREAM_EVENT, stop);
  }, [stop]);

  const { actions, pendingDelete, confirmDelete, cancelDelete } = useMessageActions({
    slug,
    threadSlug,
    base,
    workspacePath,
    messagesRef,
    busyRef,
    update,
    send,
  });

  return {
    messages,
    loadError,
    busy,
    agentActive,
    send,
    stop,
    actions,
    pendingDelete,
    confirmDelete,
    cancelDelete,
  };
}
