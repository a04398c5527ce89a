import { memo } from "react";
import { useTranslation } from "react-i18next";
import { renderMarkdown } from "../../lib/markdown.ts";
import { Citations } from "./Citations.tsx";
import type { ChatMessage } from "./messages.ts";

/** One message; assistant text is markdown rendered without raw HTML (lib/markdown.ts). */
export const Message = memo(function Message({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  if (message.pending) {
    return (
      <article className="message assistant pending" aria-busy="true">
        <span className="typing" aria-label={t("chat.thinking")}>
          <span />
          <span />
          <span />
        </span>
      </article>
    );
  }
  if (message.error) {
    return (
      <article className="message assistant error" role="alert">
        <p>{t("chat.errors.shown", { message: message.error })}</p>
      </article>
    );
  }
  return (
    <article className={`message ${message.role}`} data-chat-id={message.chatId}>
      {message.role === "user" ? <p className="message-text">{message.content}</p> : (
        <div
          className="message-text markdown"
          // Safe: renderMarkdown escapes raw HTML and filters link targets.
          dangerouslySetInnerHTML={{ __html: renderMarkdown(message.content) }}
        />
      )}
      {message.role === "assistant" && message.closed && <Citations sources={message.sources} />}
    </article>
  );
});
