import { useCallback, useEffect, useRef, useState } from "react";
import { History } from "../../../shared/api/chat.ts";
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

  useEffect(() => {
    const abort = new AbortController();
    api(`${base}/chats`, { schema: History, signal: abort.signal })
      .then((answer) => {
        const loaded = fromHistory(answer.history);
        messagesRef.current = loaded;
        setMessages(loaded);
      })
      .catch((caught: Error) => {
        if (!abort.signal.aborted) setLoadError(caught.message);
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
        const { history } = await api(`${base}/chats`, { schema: History });
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

  const send = useCallback(async (text: string, attachments: ChatAttachment[] = []) => {
    if (busyRef.current || !text.trim()) return;
    const run = ++generation.current;
    const abort = new AbortController();
    controller.current = abort;
    setBusyState(true);
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
      update((current) => applyEvent(current, event));
      if (endsLoading(event)) setBusyState(false);
    }, abort.signal);
    if (run !== generation.current) return;
    if (controller.current === abort) controller.current = null;
    if (abort.signal.aborted) adoptAfterStop(run);
    else setBusyState(false);
  }, [base, update, setBusyState, adoptAfterStop]);

  const stop = useCallback(() => {
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
    send,
    stop,
    actions,
    pendingDelete,
    confirmDelete,
    cancelDelete,
  };
}
