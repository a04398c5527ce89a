import { type MouseEvent, type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast.ts";
import { copyText } from "./clipboard.ts";
import { Message, type MessageActions } from "./Message.tsx";
import type { ChatMessage } from "./messages.ts";

/** Within this many pixels of the end, the list follows new text; further up, it stays where the reader is. */
const FOLLOW_THRESHOLD = 80;
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

/**
 * The scrolling list of messages. It keeps to the bottom while the reader is there, and serves the copy
 * buttons of rendered code blocks with one delegated click handler (markdown HTML carries no scripts).
 */
export function MessageList(
  { messages, busy, actions, children }: {
    messages: ChatMessage[] | null;
    busy: boolean;
    actions: MessageActions;
    /** Shown above the messages (the empty state). */
    children?: ReactNode;
  },
) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  /** When the reader last scrolled by hand; scrolls the layout causes (rows taking their real height) do not count. */
  const lastInput = useRef(0);

  useEffect(() => {
    const element = list.current;
    if (!element || !follow.current) return;
    element.scrollTop = element.scrollHeight;
    // Rows outside the screen are sized by estimate (content-visibility): settle once the last ones rendered.
    let frame = requestAnimationFrame(() => {
      if (follow.current) element.scrollTop = element.scrollHeight;
      frame = requestAnimationFrame(() => {
        if (follow.current) element.scrollTop = element.scrollHeight;
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [messages]);

  const input = () => {
    lastInput.current = Date.now();
  };
  const scrolled = () => {
    const element = list.current;
    if (!element) return;
    const near = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_THRESHOLD;
    if (near) follow.current = true;
    else if (Date.now() - lastInput.current < 1000) follow.current = false;
  };

  const click = async (event: MouseEvent<HTMLDivElement>) => {
    const button = (event.target as Element).closest?.("[data-code-copy]");
    if (!button) return;
    const code = button.closest(".code-block")?.querySelector("pre code, pre")?.textContent ?? "";
    if (await copyText(code)) toast.success(t("chat.code.copied"));
    else toast.error(t("chat.actions.copyFailed"));
  };

  let lastAnswer = -1;
  if (messages) {
    for (let index = messages.length - 1; index >= 0; index--) {
      if (messages[index].role === "assistant" && !messages[index].error) {
        lastAnswer = index;
        break;
      }
    }
  }

  return (
    <div
      ref={list}
      className={`messages${busy ? " busy" : ""}`}
      aria-live="polite"
      aria-busy={busy || undefined}
      onScroll={scrolled}
      onWheel={input}
      onTouchMove={input}
      onPointerDown={(event) => {
        if (event.target === event.currentTarget) input(); // the scrollbar
      }}
      onKeyDown={(event) => {
        if (SCROLL_KEYS.has(event.key) && !(event.target as Element).closest("textarea, input")) input();
      }}
      onClick={click}
    >
      {messages === null && <p className="muted center">{t("chat.loading")}</p>}
      {children}
      {messages?.map((message, index) => (
        <Message
          key={message.uuid}
          message={message}
          canRegenerate={index === lastAnswer && index === messages.length - 1}
          actions={actions}
        />
      ))}
    </div>
  );
}
