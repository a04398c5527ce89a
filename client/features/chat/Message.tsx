import { type FormEvent, type KeyboardEvent, memo, type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMarkdown } from "../../lib/markdown_loader.ts";
import { AGENT_STATUS, AGENT_TOOL } from "./agent.ts";
import { Citations } from "./Citations.tsx";
import { SpeakButton } from "../speech/SpeakButton.tsx";
import type { ChatMessage } from "./messages.ts";
import {
  CopyIcon,
  EditIcon,
  ForkIcon,
  RegenerateIcon,
  ThumbDownIcon,
  ThumbUpIcon,
  TrashIcon,
} from "./icons.tsx";

/** What a message's toolbar can do; one stable object for the whole list, so rows stay memoized. */
export interface MessageActions {
  copy(message: ChatMessage): void;
  /** Thumbs up (true) or down (false); choosing the current value again clears it. */
  feedback(message: ChatMessage, value: boolean): void;
  /** Saves an edited prompt and asks again; resolves true when the edit was taken. */
  editPrompt(message: ChatMessage, text: string): Promise<boolean>;
  /** Saves an edited answer in place; resolves true on success. */
  editReply(message: ChatMessage, text: string): Promise<boolean>;
  regenerate(message: ChatMessage): void;
  requestDelete(message: ChatMessage): void;
  fork(message: ChatMessage): void;
}

type Props = {
  message: ChatMessage;
  /** Only the last answer can be regenerated. */
  canRegenerate: boolean;
  actions: MessageActions;
};

/**
 * One message row: the bubble (assistant text is markdown without raw HTML, rendered once per final text) and
 * a toolbar shown on hover or focus, always on touch screens. Rows are memoized: while an answer streams only
 * its own row renders again.
 */
export const Message = memo(function Message({ message, canRegenerate, actions }: Props) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const assistant = message.role === "assistant";
  // The renderer loads apart from the page; until it is in, an answer shows as plain text.
  const markdown = useMarkdown();
  const html = useMemo(
    () =>
      !assistant || message.pending || message.error || !markdown.renderer
        ? null
        : message.closed
        ? markdown.renderer.renderMarkdownCached(message.content)
        : markdown.renderer.renderMarkdown(message.content),
    [assistant, message.content, message.closed, message.pending, message.error, markdown],
  );

  if (message.pending) {
    return (
      <div className="message-row assistant">
        <article className="message assistant pending" aria-busy="true">
          <span className="typing" role="status" aria-label={t("chat.thinking")}>
            <span />
            <span />
            <span />
          </span>
        </article>
      </div>
    );
  }
  if (message.type === AGENT_STATUS || message.type === AGENT_TOOL) {
    return (
      <div className="message-row assistant agent-line">
        <p className={message.type === AGENT_TOOL ? "agent-tool" : "agent-status"}>
          {message.type === AGENT_TOOL
            ? t("chat.agent.toolCall", { call: message.content })
            : message.content}
        </p>
      </div>
    );
  }
  if (message.error) {
    return (
      <div className="message-row assistant">
        <article className="message assistant error" role="alert">
          <p>{t("chat.errors.shown", { message: message.error })}</p>
        </article>
      </div>
    );
  }

  const streaming = assistant && !message.closed;
  const saved = message.chatId !== undefined;
  return (
    <div className={`message-row ${message.role}`}>
      <article
        className={`message ${message.role}${streaming ? " streaming" : ""}${editing ? " editing" : ""}`}
        data-chat-id={message.chatId}
        aria-busy={streaming || undefined}
      >
        {message.attachments && message.attachments.length > 0 && (
          <ul className="message-attachments" aria-label={t("chat.attachments.sent")}>
            {message.attachments.map((image, index) => (
              <li key={index}>
                <img
                  src={image.dataUrl}
                  alt={image.name}
                  title={image.name}
                  loading="lazy"
                  decoding="async"
                />
              </li>
            ))}
          </ul>
        )}
        {editing
          ? (
            <EditForm
              initial={message.content}
              label={assistant ? t("chat.edit.replyLabel") : t("chat.edit.promptLabel")}
              submitLabel={assistant ? t("chat.edit.save") : t("chat.edit.submit")}
              onCancel={() => setEditing(false)}
              onSave={async (text) => {
                const done = assistant
                  ? await actions.editReply(message, text)
                  : await actions.editPrompt(message, text);
                if (done) setEditing(false);
              }}
            />
          )
          : assistant && html === null
          ? <div className="message-text markdown plain">{message.content}</div>
          : assistant
          ? (
            <div
              className="message-text markdown"
              // Safe: renderMarkdown escapes raw HTML and filters link targets.
              dangerouslySetInnerHTML={{ __html: html ?? "" }}
            />
          )
          : <p className="message-text">{message.content}</p>}
        {assistant && message.stopped && !streaming && !editing && (
          <p className="message-stopped" title={t("chat.stoppedHint")}>{t("chat.stopped")}</p>
        )}
        {assistant && message.closed && !editing && (
          <Citations sources={message.sources} searchQuery={message.searchQuery} />
        )}
      </article>
      {!editing && !streaming && (
        <div className="message-actions" role="group" aria-label={t("chat.actions.label")}>
          <ActionButton
            label={t("chat.actions.copy")}
            onClick={() =>
              actions.copy(message)}
          >
            <CopyIcon />
          </ActionButton>
          {assistant && message.chatId !== undefined && (
            <SpeakButton chatId={message.chatId} text={message.content} />
          )}
          {saved && assistant && (
            <>
              <ActionButton
                label={t("chat.actions.good")}
                pressed={message.feedbackScore === true}
                onClick={() => actions.feedback(message, true)}
              >
                <ThumbUpIcon filled={message.feedbackScore === true} />
              </ActionButton>
              <ActionButton
                label={t("chat.actions.bad")}
                pressed={message.feedbackScore === false}
                onClick={() =>
                  actions.feedback(message, false)}
              >
                <ThumbDownIcon filled={message.feedbackScore === false} />
              </ActionButton>
            </>
          )}
          {saved && (
            <ActionButton
              label={assistant ? t("chat.actions.editReply") : t("chat.actions.editPrompt")}
              mutates
              onClick={() => setEditing(true)}
            >
              <EditIcon />
            </ActionButton>
          )}
          {saved && assistant && canRegenerate && (
            <ActionButton
              label={t("chat.actions.regenerate")}
              mutates
              onClick={() => actions.regenerate(message)}
            >
              <RegenerateIcon />
            </ActionButton>
          )}
          {saved && assistant && (
            <>
              <ActionButton
                label={t("chat.actions.fork")}
                mutates
                onClick={() => actions.fork(message)}
              >
                <ForkIcon />
              </ActionButton>
              <ActionButton
                label={t("chat.actions.delete")}
                mutates
                danger
                onClick={() =>
                  actions.requestDelete(message)}
              >
                <TrashIcon />
              </ActionButton>
            </>
          )}
        </div>
      )}
    </div>
  );
});

function ActionButton(
  { label, onClick, pressed, mutates, danger, children }: {
    label: string;
    onClick: () => void;
    pressed?: boolean;
    /** Changes the conversation: unavailable while an answer streams. */
    mutates?: boolean;
    danger?: boolean;
    children: ReactNode;
  },
) {
  return (
    <button
      type="button"
      className={`message-action${danger ? " danger" : ""}`}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      data-mutates={mutates ? "" : undefined}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** Inline editor of a prompt or an answer: Ctrl+Enter (or Cmd+Enter) saves, Escape cancels. */
function EditForm(
  { initial, label, submitLabel, onSave, onCancel }: {
    initial: string;
    label: string;
    submitLabel: string;
    onSave: (text: string) => Promise<void>;
    onCancel: () => void;
  },
) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (saving || !text.trim()) return;
    setSaving(true);
    try {
      await onSave(text);
    } finally {
      setSaving(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  };
  return (
    <form className="message-edit" onSubmit={submit}>
      <textarea
        className="message-edit-input"
        aria-label={label}
        value={text}
        // Focus moves into the editor the user just opened.
        autoFocus
        rows={Math.min(12, Math.max(2, text.split("\n").length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
      />
      {!text.trim() && <p className="message-edit-error">{t("chat.edit.empty")}</p>}
      <div className="message-edit-actions">
        <button type="button" className="button secondary" onClick={onCancel} disabled={saving}>
          {t("chat.edit.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={saving || !text.trim()}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
