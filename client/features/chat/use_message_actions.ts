import { type RefObject, useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";
import { threadNameFrom } from "../../../shared/threads.ts";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { announceThreadCreated } from "../threads/events.ts";
import { copyText } from "./clipboard.ts";
import type { ChatAttachment, ChatMessage } from "./messages.ts";
import type { MessageActions } from "./Message.tsx";

export interface MessageActionsContext {
  slug: string;
  threadSlug: string | null;
  /** The chat's API path: the workspace's, or its thread's. */
  base: string;
  workspacePath: string;
  messagesRef: RefObject<ChatMessage[] | null>;
  busyRef: RefObject<boolean>;
  /** Changes the message list. */
  update: (change: (current: ChatMessage[]) => ChatMessage[]) => void;
  /** Sends a message, as the composer does. */
  send: (text: string, attachments?: ChatAttachment[]) => Promise<void>;
}

/**
 * What a person can do to one message of the conversation: copy, feedback, edit a prompt or an answer,
 * regenerate, delete (with its confirmation) and fork into a new thread.
 */
export function useMessageActions(context: MessageActionsContext) {
  const { slug, threadSlug, base, workspacePath, messagesRef, busyRef, update, send } = context;
  const { t } = useTranslation();
  const [pendingDelete, setPendingDelete] = useState<ChatMessage | null>(null);

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
    actions,
    pendingDelete,
    confirmDelete,
    cancelDelete: useCallback(() => setPendingDelete(null), []),
  };
}
