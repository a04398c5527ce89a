import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { History } from "../../../shared/api/chat.ts";
import { paths } from "../../../shared/routes.ts";
import { threadNameFrom } from "../../../shared/threads.ts";
import { api } from "../../lib/api.ts";
import { streamChat } from "../../lib/chat_stream.ts";
import { toast } from "../../lib/toast.ts";
import { announceThreadCreated, announceThreadRenamed } from "../threads/events.ts";
import { toRequestAttachments } from "./attachments.ts";
import { copyText } from "./clipboard.ts";
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
import type { MessageActions } from "./Message.tsx";

/** A window event that stops the answer being streamed (the reference's `abort-chat-stream`). */
export const ABORT_STREAM_EVENT = "abort-chat-stream";

/** Waits, then resolves; for the short retries after a stop. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The conversation of a workspace's default thread (`threadSlug` null) or of a named thread: history, sending
 * and streaming, stop, and the per-message actions (copy, feedback, edit, regenerate, delete, fork).
 */
export function useChat(slug: string, threadSlug: string | null) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<ChatMessage | null>(null);
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

  const notWhileBusy = useCallback(() => {
    if (!busyRef.current) return false;
    toast.info(t("chat.actions.busy"));
    return true;
  }, [t]);

  /** Deletes this chat and every later one of the thread, then asks `text` again (edit and regenerate). */
  const askAgainFrom = useCallback(
    async (from: ChatMessage, cutAt: number, text: string, attachments: ChatAttachment[]) => {
      try {
        await api(`${base}/delete-edited-chats`, { method: "DELETE", json: { startingId: from.chatId } });
      } catch {
        toast.error(t("chat.errors.update"));
        return false;
      }
      update((current) => current.slice(0, cutAt));
      send(text, attachments);
      return true;
    },
    [base, send, update, t],
  );

  const actions = useMemo<MessageActions>(() => ({
    async copy(message) {
      if (await copyText(message.content)) toast.success(t("chat.actions.copied"));
      else toast.error(t("chat.actions.copyFailed"));
    },
    async feedback(message, value) {
      if (message.chatId === undefined) return;
      const previous = message.feedbackScore ?? null;
      const next = previous === value ? null : value;
      const set = (score: boolean | null) =>
        update((current) =>
          current.map((item) =>
            item.uuid === message.uuid && item.role === "assistant" ? { ...item, feedbackScore: score } : item
          )
        );
      set(next);
      try {
        await api(`${workspacePath}/chat-feedback/${message.chatId}`, { json: { feedback: next } });
      } catch {
        set(previous);
        toast.error(t("chat.actions.feedbackFailed"));
      }
    },
    async editPrompt(message, text) {
      if (notWhileBusy() || message.chatId === undefined) return false;
      const index = (messagesRef.current ?? []).findIndex((item) => item.uuid === message.uuid);
      if (index === -1) return false;
      return await askAgainFrom(message, index, text, message.attachments ?? []);
    },
    async editReply(message, text) {
      if (notWhileBusy() || message.chatId === undefined) return false;
      try {
        await api(`${base}/update-chat`, {
          json: { chatId: message.chatId, newText: text, role: "assistant" },
        });
      } catch {
        toast.error(t("chat.errors.update"));
        return false;
      }
      // An edited answer is the user's text, no longer a stopped generation (the server drops the mark too).
      update((current) =>
        current.map((item) => item.uuid !== message.uuid ? item : { ...item, content: text, stopped: false })
      );
      return true;
    },
    async regenerate(message) {
      if (notWhileBusy() || message.chatId === undefined) return;
      const current = messagesRef.current ?? [];
      const index = current.findIndex((item) => item.uuid === message.uuid);
      const prompt = current[index - 1];
      if (index < 1 || prompt.role !== "user") return;
      await askAgainFrom(message, index - 1, prompt.content, prompt.attachments ?? []);
    },
    requestDelete(message) {
      if (notWhileBusy() || message.chatId === undefined) return;
      setPendingDelete(message);
    },
    async fork(message) {
      if (notWhileBusy() || message.chatId === undefined) return;
      try {
        const answer = await api<{ newThreadSlug?: string | null }>(`${workspacePath}/thread/fork`, {
          json: threadSlug ? { chatId: message.chatId, threadSlug } : { chatId: message.chatId },
        });
        if (!answer.newThreadSlug) throw new Error("no thread");
        const name = threadNameFrom(message.content, t("chat.fork.name"));
        announceThreadCreated({ thread: { slug: answer.newThreadSlug, name } });
        globalThis.location.assign(paths.thread(slug, answer.newThreadSlug));
      } catch {
        toast.error(t("chat.errors.fork"));
      }
    },
  }), [base, workspacePath, slug, threadSlug, t, update, notWhileBusy, askAgainFrom]);

  const confirmDelete = useCallback(async () => {
    const message = pendingDelete;
    setPendingDelete(null);
    if (!message || message.chatId === undefined) return;
    try {
      await api(`/workspace/workspace-chats/${message.chatId}`, { method: "PUT" });
    } catch {
      toast.error(t("chat.errors.delete"));
      return;
    }
    update((current) => current.filter((item) => item.chatId !== message.chatId));
    toast.success(t("chat.delete.done"));
  }, [pendingDelete, update, t]);

  return {
    messages,
    loadError,
    busy,
    send,
    stop,
    actions,
    pendingDelete,
    confirmDelete,
    cancelDelete: useCallback(() => setPendingDelete(null), []),
  };
}
